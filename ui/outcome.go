package ui

import (
	"canopy/api"
	"canopy/views/safe"
)

// outcome explains a failed change the way the API says it, for dialogs:
// a missing resource was already gone (so the change is done), a refusal
// lists its preconditions or field violations, a denial says who lacks
// what.
func outcome(err error) ([]string, bool) {
	if api.IsNotFound(err) {
		return []string{"already gone"}, true
	}
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
