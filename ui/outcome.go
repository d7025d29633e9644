package ui

import (
	"canopy/api"
	"canopy/views/safe"
)

// outcome explains a failed delete the way the API says it: a missing
// resource was already gone (so the delete is done); else as failure.
func outcome(err error) ([]string, bool) {
	if api.IsNotFound(err) {
		return []string{"already gone"}, true
	}
	return failure(err)
}

// failure explains a failed change: the server's message, then its
// precondition or field violations (a denial's message says who lacks
// what; a missing identity is named by its ResourceInfo).
func failure(err error) ([]string, bool) {
	var lines []string
	apiErr, ok := api.AsError(err)
	if !ok {
		return []string{safe.String(err.Error())}, false
	}
	lines = append(lines, safe.String(apiErr.Message))
	for _, v := range apiErr.PreconditionViolations() {
		lines = append(lines, "  "+safe.String(v.Type)+": "+safe.String(v.Description))
	}
	for _, v := range apiErr.FieldViolations() {
		lines = append(lines, "  "+safe.String(v.Field)+": "+safe.String(v.Description))
	}
	return lines, false
}
