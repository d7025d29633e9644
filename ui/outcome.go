package ui

import (
	"errors"
	"strings"

	"canopy/api"
	"canopy/keymap"
	"canopy/safe"
	"canopy/views/dialog"
)

// unknownLine says a change's outcome is unknown (whether: "it was
// deleted"), and how to find out (how: "r to refresh to see").
func unknownLine(err error, whether, how string) string {
	return "no answer (" + safe.String(api.LostCause(err)) + "): unknown whether " + whether + " — " + how
}

// outcomeOf explains a failed change for a dialog: a lost answer is
// unknown; a delete of something missing was already done; else a failure.
func (e *env) outcomeOf(made string) dialog.Outcome {
	return func(err error) ([]string, dialog.Result) {
		var s *settled
		switch {
		case errors.As(err, &s):
			return e.settledOutcome(s, made)
		case api.MaybeMade(err):
			return []string{unknownLine(err, "it was "+made, e.common.Key(keymap.Refresh)+" to refresh to see")}, dialog.Unknown
		case made == "deleted" && api.IsNotFound(err):
			return []string{"already gone"}, dialog.Done
		}
		return e.failure(err), dialog.Failed
	}
}

// failure explains a failed change: the server's message, then its
// precondition or field violations; a denial says who lacks what.
func (e *env) failure(err error) []string {
	apiErr, ok := api.AsError(err)
	if !ok {
		return []string{safe.String(err.Error())}
	}
	var lines []string
	if apiErr.Code == api.CodePermissionDenied {
		lines = append(lines, e.denial(apiErr))
	}
	lines = append(lines, safe.String(apiErr.Message))
	for _, v := range apiErr.PreconditionViolations() {
		lines = append(lines, "  "+safe.String(v.Type)+": "+safe.String(v.Description))
	}
	for _, v := range apiErr.FieldViolations() {
		lines = append(lines, "  "+safe.String(v.Field)+": "+safe.String(v.Description))
	}
	return lines
}

// denial says which identity lacks which right, from what the client
// knows (the identity it acts as) and the right the server names.
func (e *env) denial(apiErr *api.Error) string {
	who := e.identity
	if who == "" {
		who = "this token"
	}
	right := "the right to do this"
	if ri := apiErr.ResourceInfo(); ri != nil && ri.Description != "" {
		right = safe.String(ri.Description)
		if c, ok := strings.CutPrefix(right, "missing capability "); ok {
			right = "the capability " + c
		}
		if ri.ResourceName != "" {
			right += " on " + api.ShortPath(safe.String(ri.ResourceName))
		}
	}
	return "denied: " + safe.String(who) + " lacks " + right
}
