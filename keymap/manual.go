package keymap

// The manual is the fuller account of the keys in docs/keys.md: each row
// the actions it explains and what it says of them, printed after the
// help's own line for each key. The page is made from the declarations
// and this, by a test in ui (CANOPY_UPDATE_DOCS=1 rewrites it), so it
// names the keys canopy has and says what the help says.

// ManualRow is one row of the keys table.
type ManualRow struct {
	Actions []Action
	Says    string
}

// Manual lists the rows, in the page's order.
func Manual() []ManualRow {
	return []ManualRow{
		{Actions: []Action{Up, Down, Top, Bottom, HalfUp, HalfDown, PageUp, PageDown},
			Says: "move (the mouse wheel too); `G` fetches the last page with one request (in the tree too: an opened collection has a line for each child, loaded as it comes into view, so `G`, `g` and `ctrl+d` over 10⁶ unloaded children ask for at most one page per screen)"},
		{Actions: []Action{Expand},
			Says: "expand a node (in tables: open)"},
		{Actions: []Action{Collapse},
			Says: "collapse, or go to the parent (in tables: back)"},
		{Actions: []Action{Open},
			Says: "open: a collection as a table, a resource as a page"},
		{Actions: []Action{Back},
			Says: "close the innermost thing (command line, help, filter, marks, table: marks go before a `:deprecated` table closes); in the tree, like `h`; an error on the status line goes with what `esc` cancels"},
		{Actions: []Action{Focus},
			Says: "move between the tree and the detail pane"},
		{Actions: []Action{Filter, ServerFilter},
			Says: "fuzzy filter the loaded rows, best match first (the filter line says `best first`, and the header drops its sort mark until the filter is cleared), matched letters marked (rows whose name matches come at once; rows that match only in another column, such as a digest or the FOLDER or REPO they live in, follow below them a moment later, their matched letters marked in that column); `!text` inverts, `re:expr` is a regular expression; `enter` keeps it, `esc` clears it. Type ahead freely: `/aws⏎⏎` typed before the filter has answered opens the best match when it does, and rows that arrive while a filter is kept are searched too without moving the cursor. Where the API has an exact filter (repo and tag names, advisory ids or text) and not everything is loaded, `ctrl+s` asks the server instead and shows it as a chip (`esc` removes it). In the tree the filter line also says how many children of opened lists are not loaded, and `ctrl+s` asks the server for what the pattern names exactly (folders, repos and identities by name, advisories by id in any case, or by a CVE or GHSA id they name), wherever it lives: one found is shown in the tree, its folders opened and the cursor on it, the status line saying where; several open a picker that says what each is and where it lives (typing a folder's name narrows it to what lives there)"},
		{Actions: []Action{Sort},
			Says: "cycle the server-side sort (name ↑, name ↓, newest, recently updated, least recently updated); the cursor stays on its row when the new first page has it, else the status line says so. Tags have one more, canopy's own: `version` (`latest` first, then versions as numbers, `2.0` before `10.0`, a variant such as `-dev` right after its version, then names that are no version); the server has no such order, so every tag loads first, with progress on the info line, then they are sorted with the cursor on the row it was on (with `D`, the deprecated ones)"},
		{Actions: []Action{OnlyFlagged},
			Says: "deprecated tags only: scans every page (3 requests at a time) and shows progress, keeping only the deprecated tags (`D` again loads the others about the cursor, as any list does); on a repo in the tree, opens its deprecated tags (`esc` closes that table at once); the tree then shows the exact count, on the repo's row even if it was never opened there; a filter (`/`) there searches the deprecated tags and counts its matches among them (`158/49,420 deprecated · scanned 200,000/518,017` while the scan goes on; each page costs the filter only its own rows, merged into the matches by score)"},
		{Actions: []Action{Advisories},
			Says: "the advisories of the selected repo's image name (on a repo or tag in the tree or a table, or a repo's page); on a tag's page, every advisory it lists, its versioned packages' (`python-3.13`) too"},
		{Actions: []Action{Resolved},
			Says: "on a repo's or tag's page (the detail pane, focused with `tab`, or a full page): the vulnerabilities resolved in its image (`python:latest` for a repo, the tag's for a tag) in the last 90 days, a row a vulnerability and day with its advisory, aliases and score; `enter` on a row opens the advisory's page"},
		{Actions: []Action{Check},
			Says: "on an account association's page: the service exchanges credentials now with each cloud the association ties (AWS, Google Cloud, Azure), and the page shows each answer in its CHECK section (ready, or why not in the service's and the provider's words) until it reads the association again (`r`); one with none of the three says there is nothing to check"},
		{Actions: []Action{Page},
			Says: "a row's own page where `enter` opens something else: in a repos table, the repo's page (its activity and advisories); in the tree, the page of a repo, folder or the organization (where `enter` expands it)"},
		{Actions: []Action{Table},
			Says: "on a folder or repo in the tree, open what it holds as a full-screen table: a repo's tags, a folder's repos and those of every folder under it (a collection node opens as a table with `enter`)"},
		{Actions: []Action{ShowHidden},
			Says: "in a tag table, show the tags the API hides too (epochs `-r<N>`, dates `-<yyyymmdd>`, signatures `sha256-*`); while they are hidden `D` says how many were not scanned (`4,403 hidden tags not scanned: H adds them`)"},
		{Actions: []Action{Mark, MarkFlagged},
			Says: "mark a row / mark every deprecated row shown (in a partly loaded table `V` says how many rows it could not look at: `D` scans them all)"},
		{Actions: []Action{Refresh},
			Says: "refresh, or retry what failed"},
		{Actions: []Action{Copy},
			Says: "copy the uid (a tag's digest; marked tags as `repo:tag@digest` lines) with OSC 52"},
		{Actions: []Action{CopyRef},
			Says: "copy a tag's pull reference, `cgr.dev/<org>/<repo>:<tag>@<digest>` (nothing unsafe is copied: see [copying](service.md#copying)), in the tree, a table or the tag's page (which shows it, with its repo)"},
		{Actions: []Action{Edit},
			Says: "edit in place: a row's (or tree node's) description; in the detail pane (`tab`), `↑`/`↓` move a cursor among the fields the API lets you change and `e` or `enter` edits the one under it. The footer, across the whole width, previews the exact request (`PATCH /registry/v2/repos/…/<uid>?update_mask=… \"old\" → \"new\"`); `enter` sends only that field, `esc` cancels; a refusal stays in the editor with the server's reason beside the field (wrapped, never cut) and the rest in the footer. A role binding's role (on its row, tree node or page) is chosen in the bind flow's role picker, on the role it has, then the form previews the PATCH of `role_uid`; a secret (a provider's client secret) is typed as dots, never shown nor kept, and cannot be undone"},
		{Actions: []Action{EditReadme},
			Says: "on a repo's page: its readme in your editor (`$VISUAL`, else `$EDITOR`; none set says how) on this terminal, in a file only you can read, removed when the editor ends. Back in canopy, a change shows as the lines it removes and adds and the exact request (`PATCH /registry/v2/repos/…/<uid>/readme?update_mask=content`); `y` sends it once, `u` puts the old readme back. An answer lost on the way is looked up (the readme read again) before the same change is offered again; a repo synced from another keeps its source's readme (the server says so)"},
		{Actions: []Action{RequestAccess},
			Says: "when the token sees no organization (or not the one `--org` names), canopy says what it asked the service and what it answered: whether the token may look for the organization of its email's domain (a verified email from a sign-in the service trusts, of no free mail domain), and which verified organization that is. `A` asks its owners to let you in (`POST /iam/v2/groups/<uid>:requestGroupAccess`): sent once, it is pending (the service tells the owners out of band and shows nothing of it after); a second the same day the service refuses, and canopy says it was already sent; a lost answer is said unknown (asking again is safe: the service refuses a second). `r` looks again, and opens the organization once an owner has bound you a role. `:join` shows the same over an organization open"},
		{Actions: []Action{Undo},
			Says: "undo this session's edits one at a time, newest first (the old value, same mask; a moved tag goes back to its old digest); each undo is in `:changes`; \"nothing left to undo\" at the end"},
		{Actions: []Action{New},
			Says: "create in this collection: folder, repo, identity, tag, subscription (in a bindings list: a binding); fields checked as you type with the server's rules (names, lengths, https URLs); the flash names what was created. A tag name that exists is looked up as you type: the footer says it would move the tag from its digest to the new one, `enter` twice moves it, `u` moves it back"},
		{Actions: []Action{Delete},
			Says: "delete the row (or the marked rows) after a dialog that names each with its uid and what goes with it (a repo's tags and an identity's bindings counted, a folder's contents); a folder: type its name (several: their number; a name that cannot be typed: the last part of its uid). A refusal lists what is in the way and `enter` opens it (the folder's subfolders, repos…); a denial names the identity and the capability it lacks; one row deleted closes the dialog and says so on the status line; several list their results, failures first, failed rows stay marked, and `r` sends again what the server refused (never what has an unknown outcome); in a filtered table the filter and the cursor's place stay"},
		{Actions: []Action{Bind},
			Says: "bind a role: on an identity (or marked ones), a folder or a role, pick what is missing (in the role picker `1`-`9` choose while its filter is empty; choices that fail to load: `r` retries); one folder or role at a time; marked identities go in one request (the service's batch create, up to 25 a request, all bound or none: a batch refused whole is sent one by one to say which identity it refuses; a server without it is asked one by one, and the status line says so once); identities bound are unmarked, failed ones stay marked"},
		{Actions: []Action{Access},
			Says: "who can do what (`:access` for the organization, `:access apps/web` for a folder): on an identity (in the tree, a table or its page; on a binding, its identity's; on a row of the matrix, its identity's), its access in each folder where it holds something; on a folder or repo, every identity holding something there; on a role, where it is held. A row is an identity, a column a group of capabilities (PULL, PUSH, DELETE, REPOS, BIND, IAM, EVENTS, ADVISE: `all` of the group, `some`, or none); a binding on a folder applies below it too. `→` and `←` move a cell cursor over the groups and `enter` opens the cell: the grants behind it first, each with the role, the folder it is bound on and whether it is inherited from above, then the rest of the row's; `D` keeps the flagged rows (a workload with write capabilities at the organization, a writer not seen for 90 days, IAM managed below the organization, a binding whose identity or role is gone, a question a part not readable leaves open), FLAGS says why. Read once per organization (`r` reads again); a binding made or deleted here changes it at once"},
		{Actions: []Action{ScimToken, ScimRevoke, ScimSwitch},
			Says: "on an identity provider's page (`:providers`, `enter`): its SCIM provisioning token and switch. `T` generates the first token, or, after asking, a new one in place of the one it has (which keeps working an hour, then stops); the token shows once at the top of the page, `y` copies it without showing it on the status line, and it is gone when the page closes (nothing keeps it: the service keeps only its digest). `X` revokes the token after asking (provisioning stops authenticating at once; the switch stays as it was); `P` turns provisioning on or off after asking (the service turns it on only for an organization with two or more owners bound by hand). A lost answer is looked up before anything is sent again: a token made meanwhile that no one saw is said so, and `T` replaces it"},
		{Actions: []Action{Yes},
			Says: "in a dialog, yes: the dialog's question names the key bound (`yes` in the config's `keys`; `enter` answers too); every hint names the keys as bound, so a rebound key is named right"},
		{Actions: []Action{Command, Help, Quit},
			Says: "command line (from the help too: `?` then `:tags⏎`; `enter` runs the command named, or the start of one or of an alias, `:adv`; a name that only resembles one is refused with what it resembles, and a kind with no command (`:versions`) says why; `↑`/`↓` or `tab` choose it), help (every key, then every `:` command with what it does; scrolls with `j`/`k`, `pgdn` and the wheel, and says where it is), quit (`ctrl+c` quits from anywhere)"},
		{Actions: []Action{Accept, Cancel, Complete, Prev, Next},
			Says: "in a text input (command line, filter, picker, editor): accept, cancel, complete the highlighted suggestion, the previous and the next suggestion"},
	}
}
