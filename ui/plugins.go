package ui

import (
	"context"
	"fmt"
	"os"
	"slices"

	tea "charm.land/bubbletea/v2"

	"canopy/keymap"
	"canopy/plugin"
	"canopy/safe"
	"canopy/text"
	"canopy/views"
	"canopy/views/cmdline"
	"canopy/views/dialog"
	"canopy/views/explorer"
	"canopy/views/runlog"
)

// Terminal hands canopy's terminal to another program and takes it back.
type Terminal interface {
	// Lend is the command that runs run with the terminal's files while
	// canopy is off the screen, reads no key and leaves ctrl+c to the
	// program; done's message comes once canopy has the terminal again.
	// run's context ends when canopy is ended by a signal.
	Lend(run func(ctx context.Context, in, out, errOut *os.File) error, done func(error) tea.Msg) tea.Cmd
}

// PluginClash says why a plugin's name cannot be its `:` command (it is
// one of canopy's), nil when it can.
func PluginClash(p plugin.Plugin) error {
	for _, c := range commands(keymap.Default(), kinds(nil), nil, nil) {
		switch {
		case c.Name == p.Name:
			return fmt.Errorf("name %q is canopy's command :%s; name the plugin otherwise", p.Name, c.Name)
		case slices.Contains(c.Aliases, p.Name):
			return fmt.Errorf("name %q is canopy's command :%s (another name of :%s); name the plugin otherwise", p.Name, p.Name, c.Name)
		}
	}
	return nil
}

// pluginCommands are the plugins' `:` commands.
func pluginCommands(plugins []plugin.Plugin) []shellCommand {
	out := make([]shellCommand, 0, len(plugins))
	for _, p := range plugins {
		out = append(out, shellCommand{Command: cmdline.Command{Name: p.Name, Desc: p.Says() + " (on " + p.KindsText() + ")"},
			orgWide: true, run: func(m *Model, args []string) tea.Cmd {
				if len(args) > 0 {
					return m.setFlash(":"+p.Name+" takes no argument: it runs on the row under the cursor, or on the marked rows", true)
				}
				return m.runPlugin(p)
			}})
	}
	return out
}

// pluginTarget is a resource a plugin may run on: the item, and the
// resource of its tree node's parent (a tag's repo), nil elsewhere.
type pluginTarget struct{ item, parent any }

// targeted is a screen with marked rows: a plugin runs on each of them,
// or on the row under the cursor.
type targeted interface{ Targets() []any }

// pluginTargets are what the top screen's cursor (or marks) is on.
func (m *Model) pluginTargets() []pluginTarget {
	top := m.top()
	switch s := top.(type) {
	case targeted:
		var out []pluginTarget
		for _, it := range s.Targets() {
			out = append(out, pluginTarget{item: it})
		}
		return out
	case *explorer.Model:
		n := s.Tree().Selected()
		if n == nil || n.Item == nil {
			return nil
		}
		t := pluginTarget{item: n.Item}
		if n.Parent != nil {
			t.parent = n.Parent.Item
		}
		return []pluginTarget{t}
	case current:
		if it := s.Current(); it != nil {
			return []pluginTarget{{item: it}}
		}
	}
	return nil
}

// pluginState is whether p runs here, and why not. It looks at one
// target only (a screen's rows are of one kind): the help and every press
// of a plugin's key ask it, and the marked rows are a walk over the list.
func (m *Model) pluginState(p plugin.Plugin) keymap.State {
	a := keymap.PluginAction(p.Name)
	if m.env.org == nil {
		return keymap.Off(a, "no organization yet")
	}
	item := m.pluginKindItem()
	if item == nil {
		return keymap.Off(a, "it runs on "+p.KindsText()+"; nothing is under the cursor here")
	}
	k := m.env.kinds.of(item)
	if k == nil || !p.Applies(k.plugin) {
		noun := "this"
		if k != nil {
			noun = k.nouns
		}
		return keymap.Off(a, "it runs on "+p.KindsText()+", not on "+noun)
	}
	return keymap.State{Action: a, Enabled: true, Hide: true, Run: func() tea.Cmd { return m.runPlugin(p) }}
}

// pluginKindItem is one resource of those a plugin would run on here:
// the one under the cursor, else (a cursor on a row not loaded) a target.
func (m *Model) pluginKindItem() any {
	switch s := m.top().(type) {
	case *explorer.Model:
		if n := s.Tree().Selected(); n != nil {
			return n.Item
		}
		return nil
	case current:
		if it := s.Current(); it != nil {
			return it
		}
	}
	if ts := m.pluginTargets(); len(ts) > 0 {
		return ts[0].item
	}
	return nil
}

// pluginStates are every plugin's state, for the help.
func (m *Model) pluginStates() []keymap.State {
	out := make([]keymap.State, 0, len(m.plugins))
	for _, p := range m.plugins {
		out = append(out, m.pluginState(p))
	}
	return out
}

// pluginKey runs the plugin a key names, if it names one: of the plugins
// with that key, the one that runs on what the cursor is on.
func (m *Model) pluginKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	var first *plugin.Plugin
	for i, p := range m.plugins {
		if !m.common.Keys.Is(msg, keymap.PluginAction(p.Name)) {
			continue
		}
		if first == nil {
			first = &m.plugins[i]
		}
		if st := m.pluginState(p); st.Enabled {
			return st.Run(), true
		}
	}
	if first == nil {
		return nil, false
	}
	st := m.pluginState(*first)
	return m.setFlash(fmt.Sprintf("`%s` (%s): %s", msg.String(), first.Name, st.Reason), false), true
}

// pluginNamed is the plugin a `:` command names.
func (m *Model) pluginNamed(name string) (plugin.Plugin, bool) {
	i := slices.IndexFunc(m.plugins, func(p plugin.Plugin) bool { return p.Name == name })
	if i < 0 {
		return plugin.Plugin{}, false
	}
	return m.plugins[i], true
}

// runPlugin runs p on the targets, once per row: rows whose values are not
// of their shape are left out and said; with none left nothing runs.
func (m *Model) runPlugin(p plugin.Plugin) tea.Cmd {
	if st := m.pluginState(p); !st.Enabled {
		return m.setFlash(p.Name+": "+st.Reason, true)
	}
	var jobs []plugin.Job
	var skipped []safe.Text
	nouns := ""
	for _, t := range m.pluginTargets() {
		k := m.env.kinds.of(t.item)
		if k == nil || !p.Applies(k.plugin) {
			continue // a screen's rows are of one kind: pluginState looked at the first
		}
		nouns = k.nouns
		vars := m.env.pluginVars(k, t)
		on := targetName(vars)
		job, err := p.Job(on, vars)
		if err != nil {
			skipped = append(skipped, safe.Of(on)+": not run: "+safe.Of(err.Error()))
			continue
		}
		jobs = append(jobs, job)
	}
	if len(jobs) == 0 {
		msg := p.Name + ": nothing to run"
		if len(skipped) > 0 {
			msg = p.Name + ": " + string(skipped[0])
		}
		return m.setFlash(msg, true)
	}
	if err := p.Locate(); err != nil {
		return m.setFlash(p.Name+": "+err.Error(), true)
	}
	if p.Confirm {
		return m.env.askPlugin(p, jobs, skipped, nouns, func() tea.Msg { return pluginGoMsg{p: p, jobs: jobs, skipped: skipped, nouns: nouns} })
	}
	return m.startPlugin(p, jobs, skipped, nouns)
}

// pluginGoMsg: the user said yes to running p.
type pluginGoMsg struct {
	p       plugin.Plugin
	jobs    []plugin.Job
	skipped []safe.Text
	nouns   string
}

// pluginRanMsg: a foreground run gave the terminal back.
type pluginRanMsg struct {
	name     string
	statuses []plugin.Status
	err      error
	runs     int // asked for (a ctrl+c stops the ones left)
}

// startPlugin runs the jobs: in the foreground, on the terminal lent;
// in the background (or without a terminal to lend), on a page of its own.
func (m *Model) startPlugin(p plugin.Plugin, jobs []plugin.Job, skipped []safe.Text, nouns string) tea.Cmd {
	if p.Mode == plugin.Foreground && m.opts.Terminal != nil {
		var statuses []plugin.Status
		run := func(ctx context.Context, in, out, errOut *os.File) error {
			for _, s := range skipped {
				fmt.Fprintf(out, "canopy: %s: %s\r\n", p.Name, s)
			}
			statuses = plugin.RunForeground(ctx, p.Name, jobs, in, out, errOut)
			return nil
		}
		return m.opts.Terminal.Lend(run, func(err error) tea.Msg {
			return pluginRanMsg{name: p.Name, statuses: statuses, err: err, runs: len(jobs)}
		})
	}
	title := safe.Of(p.Name) + " on " + safe.Of(jobs[0].On)
	if len(jobs) > 1 {
		title = safe.Of(p.Name) + " on " + safe.Of(text.Count(len(jobs))) + " " + safe.Of(nouns)
	}
	return m.env.open(func(ctx context.Context) views.Screen {
		return runlog.New(ctx, m.common, runlog.Config{Title: title, Intro: skipped, Runs: len(jobs),
			Next: pluginEvents(ctx, p.Name, jobs, len(skipped))})
	})
}

// ran says how a foreground run ended.
func (m *Model) ran(msg pluginRanMsg) tea.Cmd {
	if msg.err != nil {
		return m.setFlash(msg.name+": "+msg.err.Error(), true)
	}
	if len(msg.statuses) == 0 {
		return m.setFlash(msg.name+": did not run", true)
	}
	bad := slices.ContainsFunc(msg.statuses, func(s plugin.Status) bool { return !s.OK() })
	say := msg.name + ": " + plugin.Summary(msg.statuses)
	if left := msg.runs - len(msg.statuses); left > 0 {
		say += fmt.Sprintf(" · %d not run (stopped)", left)
	}
	return m.setFlash(say, bad)
}

// pluginEvents runs the jobs in the background and tells each event as
// the run log takes it.
func pluginEvents(ctx context.Context, name string, jobs []plugin.Job, notRun int) func(context.Context) (runlog.Event, bool) {
	b := plugin.StartBatch(ctx, jobs)
	var statuses []plugin.Status
	return func(ctx context.Context) (runlog.Event, bool) {
		ev, ok := b.Next(ctx)
		if !ok {
			return runlog.Event{}, false
		}
		switch {
		case ev.Start:
			head := fmt.Sprintf("$ %s", jobs[ev.Index].Line())
			if len(jobs) > 1 {
				head = fmt.Sprintf("%s (%d of %d) $ %s", jobs[ev.Index].On, ev.Index+1, len(jobs), jobs[ev.Index].Line())
			}
			return runlog.Event{Header: safe.Of(head)}, true
		case ev.End:
			statuses = append(statuses, ev.Status)
			return runlog.Event{End: safe.Of(name + ": " + ev.Status.String()), Bad: !ev.Status.OK()}, true
		case ev.Done:
			bad := slices.ContainsFunc(statuses, func(s plugin.Status) bool { return !s.OK() })
			say := plugin.Summary(statuses)
			if notRun > 0 {
				say += fmt.Sprintf(" · %d not run (see the top)", notRun)
			}
			return runlog.Event{Done: true, Summary: safe.Of(say), Bad: bad || notRun > 0}, true
		}
		return runlog.Event{Output: ev.Output}, true
	}
}

// pluginVars are the variables of a target.
func (e *env) pluginVars(k *kind, t pluginTarget) plugin.Vars {
	v := plugin.Vars{}
	if k.vars != nil {
		v = k.vars(e, t.item, t.parent)
	}
	v["UID"], v["Name"] = k.uid(t.item), k.name(t.item)
	if e.org != nil {
		v["Org"], v["OrgUID"] = e.org.Name, e.org.UID
	}
	return v
}

// targetName is how the user knows a target in messages: "repo:tag" for
// what has both, else its name, else its uid.
func targetName(v plugin.Vars) string {
	switch {
	case v["Repo"] != "" && v["Tag"] != "":
		return v["Repo"] + ":" + v["Tag"]
	case v["Name"] != "":
		return v["Name"]
	}
	return v["UID"]
}

// askPlugin asks before running p: the command lines it will run.
func (e *env) askPlugin(p plugin.Plugin, jobs []plugin.Job, skipped []safe.Text, nouns string, yes tea.Cmd) tea.Cmd {
	const shown = 12
	var lines []safe.Text
	for _, j := range jobs[:min(len(jobs), shown)] {
		lines = append(lines, "$ "+safe.Of(j.Line()))
	}
	if len(jobs) > shown {
		lines = append(lines, safe.Of(fmt.Sprintf("… and %d more", len(jobs)-shown)))
	}
	for _, s := range skipped {
		lines = append(lines, "not run: "+s)
	}
	what := safe.Of(jobs[0].On)
	if len(jobs) > 1 {
		what = safe.Of(fmt.Sprintf("%d %s", len(jobs), nouns))
	}
	runs := safe.Of(p.Command + ", once")
	if len(jobs) > 1 {
		runs = safe.Of(fmt.Sprintf("%s, %d times, one after another", p.Command, len(jobs)))
	}
	cfg := dialog.Config{Title: "Run " + safe.Of(p.Name) + " on " + what + "?", Lines: lines, Verb: "run", AutoClose: true,
		Items: []dialog.Item{{Key: p.Name, Label: runs, Run: func(context.Context) (any, error) { return nil, nil }}},
		Done: func(s dialog.Settled) tea.Msg {
			if len(s.Done) == 0 {
				return nil
			}
			return yes()
		}}
	return e.open(func(ctx context.Context) views.Screen { return dialog.New(ctx, e.common, cfg) })
}
