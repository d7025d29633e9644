package ui

import (
	"strconv"
	"strings"
	"testing"
)

// TestDeleteAndBindOnEveryTable presses d and b with 0, 1 and 2 rows
// marked on every `:` table: each either asks (a dialog or a picker that
// names the rows) or says why not; none crashes (a folder table with two
// marks used to call a nil function).
func TestDeleteAndBindOnEveryTable(t *testing.T) {
	t.Parallel()
	type want struct{ d, b []string } // per number of marks: what the screen says ("" : nothing)
	tables := []struct {
		cmd, title string
		want       want
	}{
		{"repos", "repos of", want{
			d: []string{"Delete repo ", "Delete repo ", "Delete 2 repos?"}, b: []string{"", "", ""}}},
		{"tags", "tags of", want{
			d: []string{"Delete tag ", "Delete tag ", "Delete 2 tags?"}, b: []string{"", "", ""}}},
		{"groups", "folders of", want{
			d: []string{"type apps to confirm", "type apps to confirm", "type 2 folders to confirm"},
			b: []string{"Bind which identity on apps?", "Bind which identity on apps?", "b binds on one folder at a time"}}},
		{"identities", "identities of", want{
			d: []string{"Delete identity alice?", "Delete identity alice?", "Delete 2 identities?"},
			b: []string{"Which role for alice?", "Which role for alice?", "Which role for 2 identities?"}}},
		{"bindings", "role bindings of", want{
			d: []string{"Delete role binding ", "Delete role binding ", "Delete 2 role bindings?"},
			b: []string{"b binds from an identity", "b binds from an identity", "b binds from an identity"}}},
		{"roles", "roles", want{
			d: []string{"", "", ""}, b: []string{"Bind apk.pull to which identity?", "Bind apk.pull to which identity?", "b binds on one role at a time"}}},
		{"subscriptions", "subscriptions of", want{
			d: []string{"Delete subscription ", "Delete subscription ", "Delete 2 subscriptions?"}, b: []string{"", "", ""}}},
		{"advisories", "advisories", want{d: []string{""}, b: []string{""}}}, // rows cannot be marked
		{"libraries", "libraries", want{d: []string{""}, b: []string{""}}},
	}
	h, _, _ := recordingShell(t, 150, 40)
	h.waitText("platform")
	for _, tb := range tables {
		typeCommand(h, tb.cmd)
		h.waitText(tb.title, " loaded")
		for marks := range tb.want.d {
			for key, said := range map[string]string{"d": tb.want.d[marks], "b": tb.want.b[marks]} {
				h.keys("g")
				for range marks {
					h.keys("space")
				}
				if marks > 0 {
					h.waitText(strconv.Itoa(marks) + " marked")
				}
				h.keys(key)
				if said == "" {
					h.settle()
					if s := h.screen(); !strings.Contains(s, tb.title) {
						t.Errorf(":%s %s with %d marked left the table:\n%s", tb.cmd, key, marks, s)
					}
				} else {
					h.waitText(said)
				}
				// Close what opened (a flash closes by itself), unmark, and
				// come back to the table.
				if head := line(h.screen(), "canopy"); strings.Contains(head, "› Delete") || strings.Contains(head, "› bind a role") {
					h.keys("esc")
				}
				h.waitFor("the table again", func(s string) bool {
					head := line(s, "canopy")
					return strings.Contains(head, tb.title) && !strings.Contains(head, "› Delete") && !strings.Contains(head, "› bind a role")
				})
				if marks > 0 {
					h.keys("esc")
					h.waitFor("no marks", func(s string) bool { return !strings.Contains(s, " marked") })
				}
			}
		}
		h.keys("esc")
		h.waitFor("back on the tree", func(s string) bool { return !strings.Contains(line(s, "canopy"), "›") })
	}
}

// typeCommand runs a `:` command.
func typeCommand(h *harness, cmd string) {
	h.keys(":")
	for _, r := range cmd {
		h.keys(string(r))
	}
	h.keys("enter")
}
