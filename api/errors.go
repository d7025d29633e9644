package api

import (
	"errors"
	"fmt"
	"net/http"
	"time"
)

// Code is a gRPC status code, as carried in the `code` field of an AIP-193 error.
type Code int

// The gRPC status codes.
const (
	CodeOK                 Code = 0
	CodeCanceled           Code = 1
	CodeUnknown            Code = 2
	CodeInvalidArgument    Code = 3
	CodeDeadlineExceeded   Code = 4
	CodeNotFound           Code = 5
	CodeAlreadyExists      Code = 6
	CodePermissionDenied   Code = 7
	CodeResourceExhausted  Code = 8
	CodeFailedPrecondition Code = 9
	CodeAborted            Code = 10
	CodeOutOfRange         Code = 11
	CodeUnimplemented      Code = 12
	CodeInternal           Code = 13
	CodeUnavailable        Code = 14
	CodeDataLoss           Code = 15
	CodeUnauthenticated    Code = 16
)

var codeNames = [...]string{
	"OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
	"ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
	"ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS",
	"UNAUTHENTICATED",
}

// String is the code's canonical name, as used in ErrorInfo.reason.
func (c Code) String() string {
	if c >= 0 && int(c) < len(codeNames) {
		return codeNames[c]
	}
	return fmt.Sprintf("CODE(%d)", int(c))
}

// HTTPStatus is the HTTP status the gateway answers with for this code.
func (c Code) HTTPStatus() int {
	switch c {
	case CodeOK:
		return http.StatusOK
	case CodeInvalidArgument, CodeFailedPrecondition, CodeOutOfRange:
		return http.StatusBadRequest
	case CodeUnauthenticated:
		return http.StatusUnauthorized
	case CodePermissionDenied:
		return http.StatusForbidden
	case CodeNotFound:
		return http.StatusNotFound
	case CodeAlreadyExists, CodeAborted:
		return http.StatusConflict
	case CodeResourceExhausted:
		return http.StatusTooManyRequests
	case CodeCanceled:
		return 499
	case CodeUnimplemented:
		return http.StatusNotImplemented
	case CodeUnavailable:
		return http.StatusServiceUnavailable
	case CodeDeadlineExceeded:
		return http.StatusGatewayTimeout
	default:
		return http.StatusInternalServerError
	}
}

// CodeForHTTPStatus guesses a code for a response that carried no AIP-193 body
// (a proxy's error page, for instance).
func CodeForHTTPStatus(status int) Code {
	switch status {
	case http.StatusBadRequest:
		return CodeInvalidArgument
	case http.StatusUnauthorized:
		return CodeUnauthenticated
	case http.StatusForbidden:
		return CodePermissionDenied
	case http.StatusNotFound:
		return CodeNotFound
	case http.StatusConflict:
		return CodeAborted
	case http.StatusTooManyRequests:
		return CodeResourceExhausted
	case http.StatusNotImplemented:
		return CodeUnimplemented
	case http.StatusServiceUnavailable, http.StatusBadGateway:
		return CodeUnavailable
	case http.StatusGatewayTimeout:
		return CodeDeadlineExceeded
	default:
		return CodeUnknown
	}
}

// Detail type URLs.
const (
	TypeErrorInfo           = "type.googleapis.com/google.rpc.ErrorInfo"
	TypeBadRequest          = "type.googleapis.com/google.rpc.BadRequest"
	TypePreconditionFailure = "type.googleapis.com/google.rpc.PreconditionFailure"
	TypeResourceInfo        = "type.googleapis.com/google.rpc.ResourceInfo"
)

// ErrorInfo is the machine-readable reason and domain of an error.
type ErrorInfo struct {
	Reason   string            `json:"reason,omitempty"`
	Domain   string            `json:"domain,omitempty"`
	Metadata map[string]string `json:"metadata,omitempty"`
}

// FieldViolation says why one request field was rejected.
type FieldViolation struct {
	Field       string `json:"field,omitempty"`
	Description string `json:"description,omitempty"`
}

// BadRequest lists the per-field validation failures of a request.
type BadRequest struct {
	FieldViolations []FieldViolation `json:"fieldViolations,omitempty"`
}

// PreconditionViolation says why a request was blocked, e.g. RESOURCE_NOT_EMPTY.
type PreconditionViolation struct {
	Type        string `json:"type,omitempty"`
	Subject     string `json:"subject,omitempty"`
	Description string `json:"description,omitempty"`
}

// PreconditionFailure lists the reasons a request was blocked.
type PreconditionFailure struct {
	Violations []PreconditionViolation `json:"violations,omitempty"`
}

// ResourceInfo names the resource an error is about.
type ResourceInfo struct {
	ResourceType string `json:"resourceType,omitempty"`
	ResourceName string `json:"resourceName,omitempty"`
	Owner        string `json:"owner,omitempty"`
	Description  string `json:"description,omitempty"`
}

// Detail is one typed entry of an error's details. Exactly one of the pointer
// fields is set for a known @type; an unknown type keeps only Type.
type Detail struct {
	Type                string
	ErrorInfo           *ErrorInfo
	BadRequest          *BadRequest
	PreconditionFailure *PreconditionFailure
	ResourceInfo        *ResourceInfo
}

// Status is the AIP-193 error body.
type Status struct {
	Code    Code     `json:"code"`
	Message string   `json:"message,omitempty"`
	Details []Detail `json:"details,omitempty"`
}

// Error is a failed API call: the AIP-193 status the server sent (or one made
// up from the HTTP status when the body was not one), and the HTTP status.
type Error struct {
	Status
	// HTTPStatus is the response's HTTP status code.
	HTTPStatus int
	// Method and Path say which request failed (never the query or the token).
	Method, Path string
	// RetryAfter is the wait the server asked for (Retry-After), if any.
	RetryAfter time.Duration
}

// Error renders the server's message with the request it answers.
func (e *Error) Error() string {
	msg := e.Message
	if msg == "" {
		msg = e.Code.String()
	}
	if e.Method == "" {
		return msg
	}
	return fmt.Sprintf("%s %s: %s", e.Method, e.Path, msg)
}

// ErrorInfo is the error's ErrorInfo detail, or nil.
func (e *Error) ErrorInfo() *ErrorInfo {
	for _, d := range e.Details {
		if d.ErrorInfo != nil {
			return d.ErrorInfo
		}
	}
	return nil
}

// ResourceInfo is the error's ResourceInfo detail, or nil.
func (e *Error) ResourceInfo() *ResourceInfo {
	for _, d := range e.Details {
		if d.ResourceInfo != nil {
			return d.ResourceInfo
		}
	}
	return nil
}

// FieldViolations gathers every BadRequest field violation of the error.
func (e *Error) FieldViolations() []FieldViolation {
	var out []FieldViolation
	for _, d := range e.Details {
		if d.BadRequest != nil {
			out = append(out, d.BadRequest.FieldViolations...)
		}
	}
	return out
}

// PreconditionViolations gathers every PreconditionFailure violation of the error.
func (e *Error) PreconditionViolations() []PreconditionViolation {
	var out []PreconditionViolation
	for _, d := range e.Details {
		if d.PreconditionFailure != nil {
			out = append(out, d.PreconditionFailure.Violations...)
		}
	}
	return out
}

// AsError finds an *Error in err's chain.
func AsError(err error) (*Error, bool) {
	var apiErr *Error
	ok := errors.As(err, &apiErr)
	return apiErr, ok
}

// CodeOf is the code of the *Error in err's chain, CodeOK for nil, else CodeUnknown.
func CodeOf(err error) Code {
	if err == nil {
		return CodeOK
	}
	if apiErr, ok := AsError(err); ok {
		return apiErr.Code
	}
	return CodeUnknown
}

// IsNotFound reports whether err is a NOT_FOUND answer.
func IsNotFound(err error) bool { return CodeOf(err) == CodeNotFound }

// IsPermissionDenied reports whether err is a PERMISSION_DENIED answer.
func IsPermissionDenied(err error) bool { return CodeOf(err) == CodePermissionDenied }

// IsUnauthenticated reports whether err is an UNAUTHENTICATED answer.
func IsUnauthenticated(err error) bool { return CodeOf(err) == CodeUnauthenticated }

// IsFailedPrecondition reports whether err is a FAILED_PRECONDITION answer.
func IsFailedPrecondition(err error) bool { return CodeOf(err) == CodeFailedPrecondition }

// IsInvalidArgument reports whether err is an INVALID_ARGUMENT answer.
func IsInvalidArgument(err error) bool { return CodeOf(err) == CodeInvalidArgument }

// FieldViolations are the BadRequest field violations in err, if any.
func FieldViolations(err error) []FieldViolation {
	if apiErr, ok := AsError(err); ok {
		return apiErr.FieldViolations()
	}
	return nil
}

// PreconditionViolations are the PreconditionFailure violations in err, if any.
func PreconditionViolations(err error) []PreconditionViolation {
	if apiErr, ok := AsError(err); ok {
		return apiErr.PreconditionViolations()
	}
	return nil
}
