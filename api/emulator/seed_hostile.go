package emulator

import (
	"fmt"
	"strings"
	"time"

	"canopy/api"
)

// Hostile strings: what a compromised or careless server could send a
// terminal client. Options.Hostile seeds them into the free-text fields a
// client prints (descriptions, readmes, advisory components and aliases,
// identity claims, library names) and, beyond what the create endpoints
// would accept, into a few group and identity names: data reaches a client
// from older servers, imports and other clients, so canopy must survive
// strings its own emulator would refuse on create.
const (
	hostileClear   = "\x1b[2J\x1b[H"                                          // CSI: clear the screen, cursor home
	hostileCursor  = "\x1b[10;10H\x1b[3A\x1b7\x1b8"                           // CSI cursor moves, DECSC/DECRC
	hostileSGR     = "\x1b[5;31;47mblink\x1b[0m"                              // SGR: colours and blink
	hostileTitle   = "\x1b]0;pwned\x07"                                       // OSC 0: window and icon title
	hostileTitle2  = "\x1b]2;pwned\x1b\\"                                     // OSC 2: window title, ST-terminated
	hostileClip    = "\x1b]52;c;cHduZWQ=\x07"                                 // OSC 52: write "pwned" to the clipboard
	hostileLink    = "\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\" // OSC 8 hyperlink
	hostileDCS     = "\x1bP+q544e\x1b\\"                                      // DCS: XTGETTCAP request
	hostileAPC     = "\x1b_Gf=100;pwned\x1b\\"                                // APC: kitty graphics
	hostileC0      = "carriage\rback\bspace bell\x07"                         // C0 controls
	hostileC1      = "c1\u009b2J \u009d0;pwned\u009c"                         // C1: 8-bit CSI, OSC, ST
	hostileBidi    = "invoice\u202etxt.exe\u202c \u2066isolate\u2069 \u2067rtl\u2069 \u2068first\u2069"
	hostileZW      = "zero\u200bwidth\u200d joiner\ufeffbom"
	hostileWide    = "漢字テスト 🐍🚀 👩‍👩‍👧 ｗｉｄｅ"
	hostileCombine = "Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫg̅ö"
)

// hostileAll is every hostile string in one line: a constant, so that
// canopy's start builds nothing of the demo's data (neither do the
// functions below until the demo seeds).
const hostileAll = hostileClear + " " + hostileCursor + " " + hostileSGR + " " + hostileTitle + " " + hostileTitle2 + " " +
	hostileClip + " " + hostileLink + " " + hostileDCS + " " + hostileAPC + " " + hostileC0 + " " + hostileC1 + " " +
	hostileBidi + " " + hostileZW + " " + hostileWide + " " + hostileCombine

// hostileLong is a very long single line (no spaces to wrap at).
func hostileLong() string { return strings.Repeat("long漢", 400) }

// hostileOrgDesc replaces the primary organization's description, so the
// first screen already carries hostile text.
const hostileOrgDesc = "Acme Corp " + hostileTitle + hostileClear + hostileBidi + " " + hostileWide

func hostileFolders() []folder {
	return []folder{
		{"hostile", "Hostile strings " + hostileAll},
		{"hostile/" + "漢字-🐍-wide", hostileWide + " " + hostileCombine},
		{"hostile/" + hostileCombine, "combining marks " + hostileCombine},
		{"hostile/" + strings.Repeat("very-long-folder-name-", 4), hostileLong()},
		{"hostile/title" + hostileTitle + "-name", "an escape sequence in a name " + hostileTitle2 + hostileClip},
	}
}

// hostileRepos have valid names (the registry pattern is strict) and
// hostile descriptions and readmes.
func hostileRepos() []struct{ name, desc string } {
	return []struct{ name, desc string }{
		{"escapes", "CSI " + hostileClear + hostileCursor + hostileSGR + " OSC " + hostileTitle + hostileTitle2 + hostileClip + hostileLink},
		{"strings-dcs-apc", "DCS " + hostileDCS + " APC " + hostileAPC + " C0 " + hostileC0 + " C1 " + hostileC1},
		{"bidi-zero-width", hostileBidi + " " + hostileZW},
		{"wide-combining", hostileWide + " " + hostileCombine},
		{"long-" + strings.Repeat("x", 122), hostileLong()},
	}
}

// hostileNest is a repo whose readme nests block quotes 100 deep and a
// list 2,000 deep: 4 KB that a Markdown renderer laying out each level
// inside the last takes exponential time and memory on. Seeded last, so
// the rest of the hostile data stays as it was.
func hostileNest() (name, desc, readme string) {
	return "nested-readme", "a readme of quotes nested 100 deep and a list 2,000 deep",
		"# nested-readme\n\n" + strings.Repeat(">", 100) + " quoted 100 deep\n\n" + strings.Repeat("- ", 2000) + "listed 2,000 deep\n"
}

// hostileReadme puts each hostile string where Markdown renders it: a
// heading, a paragraph, a table, a link, inline code and a code block.
func hostileReadme(name string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s %s\n\n", name, hostileTitle)
	fmt.Fprintf(&b, "Paragraph %s %s %s\n\n", hostileClear, hostileSGR, hostileBidi)
	fmt.Fprintf(&b, "| col %s | text |\n|---|---|\n| %s | %s |\n| %s | %s |\n\n", hostileC1, hostileWide, hostileZW, hostileCombine, hostileC0)
	fmt.Fprintf(&b, "[link %s](https://evil.example/%s) and `code %s`\n\n", hostileLink, "%1b%5d0;pwned%07", hostileClip)
	fmt.Fprintf(&b, "```sh\necho '%s' %s %s\n```\n\n", hostileTitle2, hostileDCS, hostileAPC)
	fmt.Fprintf(&b, "%s\n", hostileLong())
	return b.String()
}

// hostileIdentities: the first name is beyond the identity name pattern on
// purpose (see the package note above).
func hostileIdentities() []seedIdentity {
	return []seedIdentity{
		{"hostile", "pwned" + hostileTitle + hostileClear, "identity " + hostileAll, "x" + hostileClip + "@evil.example",
			"https://evil.example/" + hostileTitle2, "sub" + hostileBidi, []string{"viewer@hostile"}},
		{"hostile", "wide-identity", hostileWide + " " + hostileCombine, "", issuerGitHub, hostileZW + hostileC1, []string{"viewer@hostile"}},
		{"hostile", "long-identity", hostileLong(), "", issuerGitHub, hostileLong(), []string{"viewer@hostile"}},
	}
}

// seedHostile adds the hostile folders, repos, identities, bindings, a
// subscription, a role, advisories (their uids sort first, so the first page
// of the feed shows them) and a library.
func (s *seeder) seedHostile(acme string) {
	paths := map[string]string{"": acme}
	for _, f := range hostileFolders() {
		parent := paths[parentPath(f.path)]
		uid := parent + "/" + s.hex16()
		c, u := s.createdIn(parent, 120*day)
		s.born[uid] = c.Time()
		s.groups.add(api.Group{UID: uid, Name: baseName(f.path), Description: f.desc, CreateTime: c, UpdateTime: u})
		paths[f.path] = uid
		s.folders[f.path] = uid
	}
	for _, r := range hostileRepos() {
		s.seedRepo(&seedRepo{name: r.name, tier: tierApp, desc: r.desc, lines: lines(v(1, 4, 5, 3)), variants: dev},
			paths["hostile"], r.name, "acme.example")
		// seedRepo wrote a benign readme.
		s.repos.items[len(s.repos.items)-1].setReadme(hostileReadme(r.name))
	}
	c, u := s.createdIn(acme, 90*day)
	role := acme + "/" + s.hex16()
	s.roles.add(api.Role{UID: role, Name: "hostile-role", Description: "role " + hostileAll,
		Capabilities: []string{capRepoList}, CreateTime: c, UpdateTime: u})
	for _, id := range hostileIdentities() {
		c, u := s.createdIn(paths[id.folder], 90*day)
		uid := paths[id.folder] + "/" + s.hex16()
		s.idents.add(api.Identity{UID: uid, Name: id.name, Description: id.desc, Email: id.email,
			ClaimMatch: &api.ClaimMatch{Issuer: id.issuer, Subject: id.subject}, CreateTime: c, UpdateTime: u})
		for _, b := range id.bindings {
			_, path, _ := strings.Cut(b, "@")
			on := paths[path]
			t := api.TimeOf(s.after(later(c.Time(), s.born[on]), 30*day))
			s.bindings.add(bindingRec{UID: on + "/" + s.hex16(), IdentityUID: uid, RoleUID: viewerRoleUID, Create: t, Update: t})
		}
	}
	s.subs.add(api.Subscription{UID: paths["hostile"] + "/" + s.hex16(), Sink: "https://hooks.evil.example/" + hostileBidi + hostileWide})
	texts := []string{hostileTitle + hostileClear, hostileClip + hostileLink, hostileDCS + hostileAPC + hostileC0,
		hostileC1 + hostileBidi + hostileZW, hostileWide + hostileCombine, hostileLong()}
	for i, text := range texts {
		t := s.ago(30*day, day)
		later := api.TimeOf(s.after(t, 12*time.Hour))
		s.advs.add(api.Advisory{UID: fmt.Sprintf("%08x%024x", i, s.rng.Uint64()), AdvisoryID: "CGA-" + s.alnum4() + "-" + s.alnum4() + "-" + s.alnum4(),
			Author: "bot" + text, ArtifactName: "hostile" + text, ArtifactType: "package", ArtifactArchitecture: "x86_64" + text,
			ComponentName: "component " + text, ComponentType: "apk", ComponentLocation: "/usr/lib/" + text,
			Aliases: []string{"CVE-2025-" + text}, Severities: []api.Severity{{Type: api.SeverityCVSSv3, Score: "CVSS:3.1/AV:N" + hostileSGR}},
			Events: []api.AdvisoryEvent{
				{UID: s.hex16(), CreateTime: api.TimeOf(t), Author: advisoryBot, ReviewState: api.ReviewApproved, Kind: api.EventDetection,
					Details: api.EventDetails{Detection: "scanv1", Facts: map[string]string{"scanner": "grype" + text, "component": text}}},
				{UID: s.hex16(), CreateTime: later, Author: "triage" + text, ReviewState: api.ReviewPending, Kind: api.EventFixed,
					Details: api.EventDetails{FixedVersion: "1.0" + text, Note: "fixed " + text}},
			}, CreateTime: api.TimeOf(t), UpdateTime: later})
	}
	lib := artifactUID(api.EcosystemJava, "org.evil:hostile")
	name, made := "org.evil:"+hostileTitle+hostileWide, api.TimeOf(s.now.Add(-time.Hour))
	s.versions.add(api.ArtifactVersion{UID: lib + "/1.0", Name: name, Version: "1.0" + hostileClear, Description: hostileAll,
		SizeBytes: 4096, CreateTime: made, UpdateTime: made})
	s.artifacts.add(api.Artifact{UID: lib, Name: name, Description: hostileAll, Ecosystem: api.EcosystemJava,
		LatestVersion: "1.0" + hostileClear, VersionCount: 1, CreateTime: made, UpdateTime: made})
	nest, desc, readme := hostileNest()
	s.seedRepo(&seedRepo{name: nest, tier: tierApp, desc: desc, lines: lines(v(1, 4, 5, 3)), variants: dev},
		paths["hostile"], nest, "acme.example")
	s.repos.items[len(s.repos.items)-1].setReadme(readme)
}
