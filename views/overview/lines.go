package overview

import (
	"fmt"
	"time"

	"canopy/census"
	"canopy/safe"
	"canopy/text"
)

// Kinds of line.
const (
	lineHeading  = iota // a part's name and its state
	lineSub             // a list's name
	lineText            // words (a placeholder, a failure, a note)
	lineBar             // a bar of a chart
	lineSpark           // a history
	lineCount           // a question and how many answer it
	lineAdvisory        // a repo's advisories by status
	lineStatuses        // the names of the advisory lines' columns
	lineMore            // "N more", which shows them
	lineFewer           // after a list shown whole: shows its first lines again
)

// Lists that show their first few lines until expanded.
const (
	listFolders = iota
	listRepos
	listRoles
	listBindingFolders
	listAdvisories
)

// shownFirst is how many lines of a list show before "N more".
const shownFirst = 8

// line is one line of the screen; only lines with a target or a list to
// expand take the cursor.
type line struct {
	kind   int
	text   string // safe: a heading's, a note's, a question's words
	note   string // safe: a heading's state, a line's detail
	after  string // safe: a heading's words after its age (progress)
	bad    bool   // text is a failure
	bar    census.Bar
	scale  int       // the largest N of the bar's list
	at     time.Time // a count's time (its age shows)
	hist   census.History
	cell   time.Duration // a history's cell
	adv    census.AdvisoryCount
	n      int
	target *Target
	more   int // the list lineMore expands or lineFewer folds; -1 for other lines
	id     string
}

func (l *line) selectable() bool { return l.target != nil || l.more >= 0 }

// shown is what the lines are made from.
type shown struct {
	deprecated census.Deprecated
	identities census.Identities
	asks       census.Asks
	byRole     []census.Bar
	byFolder   []census.Bar
	advisories []census.AdvisoryLine
	advAt      time.Time // the oldest advisory count's time
	advCounted int
}

// Parts of the counts, as bits: what changed since they were last added up.
const (
	tagsPart = 1 << iota
	advisoriesPart
	peoplePart
	allParts = tagsPart | advisoriesPart | peoplePart
)

// rebuild makes the lines again from the counts, keeping the cursor on
// the line it was on.
func (m *Model) rebuild() {
	// Until the user moves, the cursor is on the first line that takes it:
	// lines arriving above it do not push the view down.
	keep := ""
	if l := m.current(); l != nil && m.moved {
		keep = l.id
	}
	m.derive()
	m.lines = m.lines[:0]
	m.deprecatedLines()
	m.identityLines()
	m.bindingLines()
	m.advisoryLines()
	m.cursor = -1
	for i := range m.lines {
		if m.lines[i].selectable() && (m.cursor < 0 || m.lines[i].id == keep) {
			m.cursor = i
			if m.lines[i].id == keep {
				break
			}
		}
	}
	m.scrollTo()
}

// derive counts what the lines show: the parts whose counts changed
// since (all of them the first time).
func (m *Model) derive() {
	s := &m.shown
	stale := m.stale
	if !m.derived {
		stale, m.derived = allParts, true
	}
	m.stale = 0
	if m.layout == nil {
		return
	}
	if stale&tagsPart != 0 {
		s.deprecated = census.CountDeprecated(m.layout, m.cfg.Caches.Tags)
	}
	if stale&advisoriesPart != 0 {
		s.advCounted, s.advAt = 0, time.Time{}
		ac := m.cfg.Caches.Advisories
		s.advisories = census.RankAdvisories(m.layout.Repos, func(name string) (census.AdvisoryCount, bool) {
			c, at, ok := ac.Get(name)
			if ok {
				s.advCounted++
				if s.advAt.IsZero() || at.Before(s.advAt) {
					s.advAt = at
				}
			}
			return c, ok
		})
	}
	if stale&peoplePart != 0 && m.people != nil {
		s.asks = census.Asks{Stale: m.cfg.Stale, Now: m.common.Clock(), Bound: census.Bound(m.people.Bindings)}
		s.identities = census.CountIdentities(m.people, m.layout.Org, s.asks)
		s.byRole = census.BindingsByRole(m.people.Bindings)
		s.byFolder = census.BindingsByFolder(m.people.Bindings, m.layout)
	}
}

func (m *Model) add(l line) {
	if l.kind != lineMore && l.kind != lineFewer {
		l.more = -1
	}
	m.lines = append(m.lines, l)
}

func (m *Model) text(s string, bad bool) {
	m.add(line{kind: lineText, text: s, bad: bad})
}

// bars adds a list of bars: its first lines, and "N more" until expanded.
func (m *Model) bars(list int, bars []census.Bar, target func(census.Bar) *Target, at func(census.Bar) time.Time) {
	scale := 0
	for _, b := range bars {
		scale = max(scale, b.N)
	}
	n := len(bars)
	if !m.expanded[list] && n > shownFirst+1 {
		n = shownFirst
	}
	for _, b := range bars[:n] {
		l := line{kind: lineBar, bar: b, scale: scale, target: target(b), id: fmt.Sprint(list, ":", b.Key)}
		if at != nil {
			l.at = at(b)
		}
		m.add(l)
	}
	m.fold(list, n, len(bars))
}

// fold ends a list of which n of all lines show: "N more" when some are
// left out, a line that folds it again when it was shown whole.
func (m *Model) fold(list, n, all int) {
	switch {
	case n < all:
		m.add(line{kind: lineMore, n: all - n, more: list, id: fmt.Sprint("more:", list)})
	case m.expanded[list] && all > shownFirst+1:
		m.add(line{kind: lineFewer, n: shownFirst, more: list, id: fmt.Sprint("fewer:", list)})
	}
}

// deprecatedLines are the deprecated tags' part.
func (m *Model) deprecatedLines() {
	d := m.shown.deprecated
	r := m.run
	state := ""
	switch {
	case m.layout == nil && m.layoutErr == nil:
		state = "listing folders and repos" + safe.String("…")
	case m.layout != nil:
		state = fmt.Sprintf("%s of %s tags · %s of %s repos counted", text.Count(d.Total), text.Count(d.Tags),
			text.Count(d.Scanned), text.Count(d.Of))
	}
	progress := ""
	if r != nil && r.toScan > 0 && r.scanned+r.failed < r.toScan {
		progress = fmt.Sprintf(" · scanning %s of %s", text.Count(r.scanned+1), text.Count(r.toScan))
	}
	m.add(line{kind: lineHeading, text: "Deprecated tags", note: state, at: d.Oldest, after: progress})
	if m.layoutErr != nil {
		m.text("could not list the organization's repos: "+safe.String(m.layoutErr.Error()), true)
		return
	}
	if m.layout == nil {
		m.text("…", false)
		return
	}
	if m.layout.Truncated {
		m.text(fmt.Sprintf("the first %s repos are counted (a bound on the listing)", text.Count(len(m.layout.Repos))), false)
	}
	if r != nil && r.failed > 0 {
		m.text(fmt.Sprintf("%d repos could not be scanned (r tries again): %s", r.failed, safe.String(r.firstErr.Error())), true)
	}
	if d.Scanned == 0 {
		m.text("counting"+safe.String("…"), false)
		return
	}
	m.add(line{kind: lineSpark, text: "deprecated, by last update", hist: d.Deprecations, cell: census.DeprecationCell, more: -1})
	// Tags are counted as the API lists them: as the tables do until H.
	m.text("tags as the API lists them: epoch rebuilds, dated tags and signatures aside, as in tables until H", false)
	if d.Total == 0 {
		m.text("no deprecated tags in the repos counted", false)
		return
	}
	m.add(line{kind: lineSub, text: "by folder (everything below it)"})
	if len(d.Folders) == 0 {
		m.text("every deprecated tag is in a repo at the top of the organization", false)
	}
	m.bars(listFolders, d.Folders, func(b census.Bar) *Target {
		return &Target{What: OpenDeprecated, Key: b.Key, Name: b.Label}
	}, nil)
	m.add(line{kind: lineSub, text: fmt.Sprintf("by repo (%s of %s counted have deprecated tags)", text.Count(len(d.Repos)), text.Count(d.Scanned))})
	cache := m.cfg.Caches.Tags
	m.bars(listRepos, m.named(d.Repos), func(b census.Bar) *Target {
		return &Target{What: OpenDeprecated, Key: b.Key, Name: m.repoName(b.Key), Repo: true}
	}, func(b census.Bar) time.Time {
		s, _ := cache.Get(b.Key)
		return s.At
	})
}

// identityLines are the identities' part.
func (m *Model) identityLines() {
	ids := m.shown.identities
	state := ""
	if m.peopleCounted() {
		state = text.Count(ids.Total) + " identities"
		if m.people.Truncated {
			state += " (the first ones: a bound on the listing)"
		}
	}
	m.add(line{kind: lineHeading, text: "Identities", note: state})
	if m.peopleDone() {
		return
	}
	days := int(m.cfg.Stale / (24 * time.Hour))
	questions := [census.IdentityLines]string{"never seen", fmt.Sprintf("not seen for %d days", days), "with no role binding",
		"owner at the organization"}
	for q, words := range questions {
		t := &Target{What: OpenIdentities, Line: q, Asks: m.shown.asks, Name: words}
		if q == census.Owner {
			t = &Target{What: OpenBindings, Role: ids.OwnerRole, Group: m.layout.Org, Name: "owners of the organization"}
			if ids.OwnerRole == "" {
				t = nil
			}
		}
		m.add(line{kind: lineCount, text: words, n: ids.Count[q], target: t, id: fmt.Sprint("identities:", q)})
	}
}

// peopleCounted reports whether the people parts have their counts: the
// identities and bindings, and the folders they are counted by.
func (m *Model) peopleCounted() bool {
	return m.people != nil && m.layout != nil && m.peopleErr == nil && m.layoutErr == nil
}

// peopleDone adds the people parts' placeholder or failure, and says
// whether that is all there is.
func (m *Model) peopleDone() bool {
	switch {
	case m.peopleErr != nil:
		m.text("could not list identities and role bindings: "+safe.String(m.peopleErr.Error()), true)
	case m.layoutErr != nil:
		m.text("needs the organization's folders, which could not be listed", true)
	case m.people == nil || m.layout == nil:
		m.text("…", false)
	default:
		return false
	}
	return true
}

// bindingLines are the role bindings' part.
func (m *Model) bindingLines() {
	state := ""
	if m.peopleCounted() {
		state = text.Count(len(m.people.Bindings)) + " role bindings"
	}
	m.add(line{kind: lineHeading, text: "Role bindings", note: state})
	if m.peopleDone() {
		return
	}
	if len(m.people.Bindings) == 0 {
		m.text("no role bindings", false)
		return
	}
	m.add(line{kind: lineSub, text: "by role"})
	m.bars(listRoles, m.shown.byRole, func(b census.Bar) *Target {
		return &Target{What: OpenBindings, Role: b.Key, Name: b.Label}
	}, nil)
	m.add(line{kind: lineSub, text: "by folder (made on the folder itself)"})
	m.bars(listBindingFolders, m.shown.byFolder, func(b census.Bar) *Target {
		return &Target{What: OpenBindings, Group: b.Key, Name: b.Label}
	}, nil)
}

// advisoryLines are the advisories' part.
func (m *Model) advisoryLines() {
	s := m.shown
	state := ""
	if m.layout != nil {
		state = fmt.Sprintf("%s of %s repos counted", text.Count(s.advCounted), text.Count(len(m.layout.Repos)))
	}
	m.add(line{kind: lineHeading, text: "Advisories", note: state, at: s.advAt})
	if m.layout != nil {
		m.text("each repo's image name, by the status of its latest approved event (upstream: a fix pending upstream)", false)
	}
	switch {
	case m.layoutErr != nil:
		m.text("needs the organization's repos, which could not be listed", true)
		return
	case m.layout == nil:
		m.text("…", false)
		return
	}
	if r := m.run; r != nil && r.advFailed > 0 {
		m.text(fmt.Sprintf("%d advisory listings failed (r tries again): %s", r.advFailed, safe.String(r.advErr.Error())), true)
	}
	if len(s.advisories) == 0 {
		if s.advCounted > 0 {
			m.text("no advisories for the repos counted", false)
		} else {
			m.text("counting"+safe.String("…"), false)
		}
		return
	}
	// The totals count an image name once: repos of one name in several
	// folders share its advisories.
	var sum census.AdvisoryCount
	names := make(map[string]bool, len(s.advisories))
	for _, a := range s.advisories {
		if names[a.Repo.Name] {
			continue
		}
		names[a.Repo.Name] = true
		for st, n := range a.Count.N {
			sum.N[st] += n
		}
	}
	all := fmt.Sprintf("all %s repos with any", text.Count(len(s.advisories)))
	if len(names) < len(s.advisories) {
		all = fmt.Sprintf("%s repos, %s images", text.Count(len(s.advisories)), text.Count(len(names)))
	}
	m.add(line{kind: lineStatuses})
	m.add(line{kind: lineStatuses, n: 1, text: all, adv: sum})
	n := len(s.advisories)
	if !m.expanded[listAdvisories] && n > shownFirst+1 {
		n = shownFirst
	}
	for _, a := range s.advisories[:n] {
		m.add(line{kind: lineAdvisory, text: safe.String(m.label(a.Repo)), adv: a.Count,
			target: &Target{What: OpenAdvisories, Name: a.Repo.Name}, id: "advisories:" + a.Repo.UID})
	}
	m.fold(listAdvisories, n, len(s.advisories))
}
