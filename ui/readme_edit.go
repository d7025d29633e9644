package ui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/keymap"
	"canopy/safe"
	"canopy/views"
	"canopy/views/dialog"
	"canopy/views/form"
)

// A repo's readme is edited in the user's own editor ($VISUAL, else
// $EDITOR), on the terminal lent as a foreground plugin gets it: canopy
// reads the readme as the server has it now, writes it to a file only
// this user can read, in a directory of its own that goes once the
// editor ends, and reads the file back. A change is shown (its lines, the
// request) and sent once on yes; u puts the old text back. A lost answer
// is looked up (the readme read again) before anything is offered again.

// envMsg is a message the env handles itself, in Update: a step of a flow
// of its own (a readme's edit, a request to join).
type envMsg interface{ update(e *env) tea.Cmd }

// quietLender lends the terminal without asking for enter when the
// program ends: an editor's last screen is nothing to read.
type quietLender interface {
	LendQuiet(run func(ctx context.Context, in, out, errOut *os.File) error, done func(error) tea.Msg) tea.Cmd
}

// readmeReady: the readme as the server has it, in the file to edit.
type readmeReady struct {
	repo      api.Repo
	old       string
	dir, file string
	saying    string // the status line's "reading the readme of …", gone once the editor returns
}

// readmeBack: the editor ended; what the file holds then.
type readmeBack struct {
	repo     api.Repo
	old, new string
	saying   string // as readmeReady's
	err      error  // the editor's own failure (it did not start, or exited non-zero)
	readErr  error
}

// readmeFailed: the readme could not be read or written out.
type readmeFailed struct {
	what string
	err  error
}

func (m readmeFailed) update(e *env) tea.Cmd {
	return views.FlashError(m.what + ": " + strings.Join(e.failure(m.err), " ") + "; nothing opened")
}

// editReadme is `E` on a repo's page.
func (e *env) editReadme(r *api.Repo) tea.Cmd {
	name := safe.String(r.Name)
	switch {
	case e.editor == "":
		return views.FlashError("no editor to edit the readme of " + name + " in: set $VISUAL or $EDITOR (export EDITOR=vim) and start canopy again")
	case e.terminal == nil:
		return views.FlashError("the readme is edited in your editor on this terminal, which canopy cannot lend: its input is not a terminal")
	}
	repo, c, ctx := *r, e.client, e.ctx
	editor, _, _ := strings.Cut(e.editor, " ")
	saying := "reading the readme of " + name + " for " + safe.String(filepath.Base(editor)) + "…"
	read := func() tea.Msg {
		rd, err := c.GetRepoReadme(ctx, repo.UID)
		if err != nil {
			return readmeFailed{what: "could not read the readme of " + name, err: err}
		}
		dir, file, err := draftFile(rd.Content)
		if err != nil {
			return readmeFailed{what: "could not write the readme of " + name + " out for the editor", err: err}
		}
		return readmeReady{repo: repo, old: rd.Content, dir: dir, file: file, saying: saying}
	}
	return tea.Batch(views.Flash(saying), read)
}

// draftFile writes text to README.md (so that editors know it for
// Markdown) in a new directory only this user may enter.
func draftFile(text string) (dir, file string, err error) {
	dir, err = os.MkdirTemp("", "canopy-readme-")
	if err != nil {
		return "", "", fmt.Errorf("make a private directory: %w", err)
	}
	file = filepath.Join(dir, "README.md")
	if err := os.WriteFile(file, []byte(text), 0o600); err != nil {
		_ = os.RemoveAll(dir)
		return "", "", fmt.Errorf("write %s: %w", file, err)
	}
	return dir, file, nil
}

// update lends the terminal to the editor; once it ends, the file is read
// and its directory removed.
func (m readmeReady) update(e *env) tea.Cmd {
	editor := e.editor
	run := func(ctx context.Context, in, out, errOut *os.File) error {
		// Through the shell, as git runs it: $EDITOR may carry arguments
		// ("code --wait"); the file is one argument, whatever its path.
		cmd := exec.CommandContext(ctx, "/bin/sh", "-c", editor+` "$1"`, "canopy-editor", m.file)
		cmd.Stdin, cmd.Stdout, cmd.Stderr = in, out, errOut
		if err := cmd.Run(); err != nil {
			prog, _, _ := strings.Cut(editor, " ")
			return fmt.Errorf("%s: %w", filepath.Base(prog), err)
		}
		return nil
	}
	done := func(err error) tea.Msg {
		b, readErr := os.ReadFile(m.file)
		_ = os.RemoveAll(m.dir) // nothing of the text stays behind
		return readmeBack{repo: m.repo, old: m.old, new: string(b), saying: m.saying, err: err, readErr: readErr}
	}
	if q, ok := e.terminal.(quietLender); ok {
		return q.LendQuiet(run, done)
	}
	return e.terminal.Lend(run, done)
}

// ends: the reading the status line said is over once the editor has
// returned; it is not said over the change's dialog.
func (m readmeBack) ends() string { return m.saying }

// update says why nothing is sent, or shows the change to send.
func (m readmeBack) update(e *env) tea.Cmd {
	name := safe.String(m.repo.Name)
	switch {
	case m.err != nil:
		return views.FlashError("nothing sent: the editor failed (" + safe.String(m.err.Error()) + ")")
	case m.readErr != nil:
		return views.FlashError("nothing sent: could not read the edited readme back (" + safe.String(m.readErr.Error()) + ")")
	case m.new == m.old || onlyFinalNewline(m.old, m.new):
		return views.Flash("readme of " + name + " unchanged: nothing sent")
	}
	return e.askReadme(m.repo, m.old, m.new)
}

// readmeLines is how many lines of a change its dialog shows.
const readmeLines = 14

// askReadme shows a readme's change and sends it once on yes.
func (e *env) askReadme(repo api.Repo, old, new string) tea.Cmd {
	ops := diffLines(old, new)
	removed, added := diffCounts(ops)
	counts := fmt.Sprintf("−%d +%d lines", removed, added)
	lines := append([]safe.Text{safe.Of(readmeRequest(repo.UID)),
		safe.Of(fmt.Sprintf("%s, %d → %d bytes", counts, len(old), len(new))), ""}, diffText(ops, readmeLines)...)
	uid, name := repo.UID, safe.String(repo.Name)
	c := e.client
	cfg := dialog.Config{Title: "Change the readme of " + safe.Of(repo.Name) + "?", Lines: lines, Verb: "send", AutoClose: true,
		Outcome: e.outcomeOf("changed"),
		Items: []dialog.Item{{Key: uid, Label: safe.Of("readme of " + repo.Name + ": " + counts),
			Run: func(ctx context.Context) (any, error) {
				n := &api.Note{What: "repo " + fmt.Sprintf("%q", repo.Name), Fields: "readme", Change: counts}
				res, err := c.UpdateRepoReadme(api.WithNote(ctx, n), uid, new)
				if err == nil {
					e.changes.answered(n, res)
					return res, nil
				}
				if !api.MaybeMade(err) {
					return nil, err
				}
				return e.lookReadme(ctx, n, uid, old, new, err)
			}}},
		// Found not sent after a lost answer: the same change may be
		// offered again, asked again.
		Next: func(err error) (string, tea.Cmd) {
			var s *stillOld
			if !errors.As(err, &s) {
				return "", nil
			}
			return "enter shows the same change again, to send", func() tea.Msg { return readmeAgain{repo: repo, old: old, new: new} }
		},
		Done: func(s dialog.Settled) tea.Msg {
			if len(s.Done) == 0 {
				return nil
			}
			res, _ := s.Answers[uid].(*api.RepoReadme)
			if res == nil {
				res = &api.RepoReadme{UID: uid, Content: new}
			}
			return readmeSent{repo: repo, old: old, result: res, flash: fmt.Sprintf("readme of %s changed: %s (%s undoes)",
				name, counts, e.common.Key(keymap.Undo))}
		}}
	return e.open(func(ctx context.Context) views.Screen { return dialog.New(ctx, e.common, cfg) })
}

// readmeRequest is a readme's PATCH as a person reads it: the repo's
// uid shortened as requests are, its last segment kept.
func readmeRequest(uid string) string {
	r := api.ReadmePatch(uid)
	return r.Method + " " + api.ShortPath(api.ReposPath(uid)) + "/readme?update_mask=" + r.Mask
}

// readmeAgain offers a change found not made again.
type readmeAgain struct {
	repo     api.Repo
	old, new string
}

func (m readmeAgain) update(e *env) tea.Cmd { return e.askReadme(m.repo, m.old, m.new) }

// lookReadme learns what became of a readme's change whose answer was
// lost: the server has the new text (made, answered with it), still the
// old one (not made: it may be offered again), or another.
func (e *env) lookReadme(ctx context.Context, n *api.Note, uid, old, new string, lost error) (any, error) {
	cur, err := e.client.GetRepoReadme(ctx, uid)
	switch {
	case err != nil:
		return nil, e.lookedUp(n, lost, false, "", "changed", err)
	case cur.Content == new:
		return cur, e.lookedUp(n, lost, true, "the server has the new readme", "changed", nil)
	case cur.Content == old:
		s := e.lookedUp(n, lost, false, "the server still has the old readme", "changed", nil)
		return nil, &stillOld{s}
	}
	return nil, e.lookedUp(n, lost, false, "the server has another readme now ("+e.common.Key(keymap.EditReadme)+" edits from it)", "changed", nil)
}

// stillOld is a lost answer after which the server was found to have the
// readme as it was before: the change was not made.
type stillOld struct{ error }

func (s *stillOld) Unwrap() error { return s.error }

// readmeSent: the change is made; u undoes it.
type readmeSent struct {
	repo   api.Repo
	old    string
	result *api.RepoReadme
	flash  string
}

func (m readmeSent) update(e *env) tea.Cmd {
	ed := readmeEdit(e.client, &m.repo, m.result.Content)
	msg := editedMsg{e: ed, result: m.result, old: map[string]string{api.FieldContent: m.old},
		new: map[string]string{api.FieldContent: m.result.Content}, flash: m.flash}
	// The page reads the readme again: the answer is not the repo.
	return tea.Batch(func() tea.Msg { return msg }, func() tea.Msg { return views.ChangedMsg{Changes: ed.reload} })
}

// readmeEdit is a readme's text as an edit, for undo: one field, the mask
// content, read back with GetRepoReadme.
func readmeEdit(c *api.Client, repo *api.Repo, text string) edit {
	uid := repo.UID
	values := func(result any) map[string]string {
		if r, ok := result.(*api.RepoReadme); ok {
			return map[string]string{api.FieldContent: r.Content}
		}
		return map[string]string{}
	}
	return edit{mask: api.FieldContent, sends: api.ReadmePatch(uid), name: repo.Name, noun: "repo",
		fields: []form.Field{{Key: api.FieldContent, Label: "readme", Value: text}},
		reload: []views.Change{views.Changed(uid)},
		patch: func(ctx context.Context, v map[string]string) (any, error) {
			return c.UpdateRepoReadme(ctx, uid, v[api.FieldContent])
		},
		values: values,
		current: func(ctx context.Context) (map[string]string, any, error) {
			r, err := c.GetRepoReadme(ctx, uid)
			if err != nil {
				return nil, nil, err
			}
			return values(r), r, nil
		}}
}
