package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"regexp"
	"slices"
	"strings"
	"time"

	"canopy/api"
	"canopy/theme"
	"canopy/views"
	"canopy/views/columns"
	"canopy/views/filter"
	"canopy/views/safe"
	"canopy/views/search"
	"canopy/views/table"
)

// listKinds are the collections `canopy list` prints, as the UI's
// commands of the same names list them.
func listKinds() []string {
	return []string{"repos", "tags", "groups", "identities", "bindings", "roles", "advisories"}
}

// listRequest is what one `canopy list` asks for.
type listRequest struct {
	client     *api.Client
	org        string
	repo       string       // --repo: tags of one repo, advisories of one artifact
	query      filter.Query // --filter, as `/` in the UI
	deprecated bool         // --deprecated: only deprecated tags, as D in the UI
	json       bool
	out        io.Writer
}

// runList prints a collection as the UI's table shows it (same client,
// same paging, same order, same columns), or as JSON, for scripts. It
// prints the same on a terminal as into a pipe: a table is as useful on
// screen, and what it prints is made safe either way.
func runList(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("canopy list", flag.ContinueOnError)
	fs.SetOutput(stderr)
	uf := uiFlags{settings: []string{"api-url", "audience", "org", "token-file", "page-size"}}
	uf.register(fs)
	output := fs.String("o", "table", "output: table or json")
	filterText := fs.String("filter", "", "keep rows that match, as / does in the UI: the name first, then the other columns (fuzzy; !text excludes, re:expr is a regular expression)")
	repo := fs.String("repo", "", "tags: only this repo's; advisories: only this artifact's")
	deprecated := fs.Bool("deprecated", false, "tags: only deprecated ones, as D shows them in the UI (every page is read)")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), `Usage: canopy list %s [flags]

Print a collection of the organization, as the UI's table of the same name
shows it, in the UI's order (-o table), or as a JSON array of the API's
resources (-o json). Flags may come before or after the collection.

Flags:
`, strings.Join(listKinds(), "|"))
		fs.PrintDefaults()
	}
	pos, code, done := parseArgs(fs, args, stdout)
	switch {
	case done:
		return code
	case len(pos) == 0:
		sayf(stderr, "canopy list: say what to list: %s", strings.Join(listKinds(), ", "))
		return exitUsage
	case len(pos) > 1:
		sayf(stderr, "canopy list: unexpected argument %q (one collection at a time)", pos[1])
		return exitUsage
	}
	kind := pos[0]
	if !slices.Contains(listKinds(), kind) {
		sayf(stderr, "canopy list: no collection %q (want one of %s)", kind, strings.Join(listKinds(), ", "))
		return exitUsage
	}
	if *output != "table" && *output != "json" {
		sayf(stderr, "canopy list: -o %q: want table or json", *output)
		return exitUsage
	}
	if *deprecated && kind != "tags" {
		sayf(stderr, "canopy list: --deprecated applies to tags only")
		return exitUsage
	}
	if *repo != "" && kind != "tags" && kind != "advisories" {
		// Ignoring it would print every row to a script that meant one repo's.
		sayf(stderr, "canopy list: --repo applies to tags and advisories only")
		return exitUsage
	}
	if q := filter.ParseQuery(*filterText); q.Kind == filter.Regexp {
		if _, err := regexp.Compile(q.Pattern); err != nil {
			sayf(stderr, "canopy list: --filter %q: not a regular expression: %v", *filterText, err)
			return exitUsage
		}
	}
	cfg, err := resolve(uf.set, *uf.config, getenv, pathsFrom(getenv))
	if err != nil {
		sayf(stderr, "canopy list: %v", err)
		return exitUsage
	}
	logger, closeLog := uf.debugLogger(getenv, stderr)
	defer closeLog()
	client, err := api.New(api.Options{BaseURL: cfg.get("api-url"), TokenSource: cfg.tokenSource(), PageSize: cfg.pageSize(), Logger: logger,
		Retry: scriptRetry()})
	if err != nil {
		sayf(stderr, "canopy list: %v", err)
		return exitUsage
	}
	return uf.prof.profiled(stderr, "canopy list", func() int {
		org, err := pickOrg(ctx, client, cfg.get("org"))
		if err != nil {
			sayf(stderr, "canopy list: %v", err)
			return exitCode(err)
		}
		req := listRequest{client: client, org: org.UID, repo: *repo, query: filter.ParseQuery(*filterText), deprecated: *deprecated,
			json: *output == "json", out: stdout}
		if err := req.run(ctx, kind); err != nil {
			sayf(stderr, "canopy list: %v", err)
			return exitCode(err)
		}
		return exitOK
	})
}

// scriptRetry is canopy list's policy: a script walks every page and
// cannot press r, so each page is tried more often than the UI tries it
// (only reads are retried); a busy server still gets its Retry-After.
func scriptRetry() api.RetryPolicy {
	return api.RetryPolicy{MaxAttempts: 8, BaseDelay: 100 * time.Millisecond, MaxDelay: 8 * time.Second, MaxElapsed: 2 * time.Minute}
}

// exitCode tells an API that could not be connected to (3) from every
// other failure (1): a token that cannot be had, a refused redirect, an
// answer cut short or refused are not "unreachable".
func exitCode(err error) int {
	var usage usageError
	switch {
	case unreachable(err):
		return exitNoServer
	case errors.As(err, &usage):
		return exitUsage
	}
	return exitFailure
}

// unreachable reports whether err is a failure to connect to the API: its
// name does not resolve, or dialing it (or the proxy) failed or timed out.
func unreachable(err error) bool {
	var te *api.TransportError
	if !errors.As(err, &te) {
		return false
	}
	var dns *net.DNSError
	if errors.As(te.Err, &dns) {
		return true
	}
	var op *net.OpError
	return errors.As(te.Err, &op) && (op.Op == "dial" || op.Op == "proxyconnect")
}

// usageError is a mistake in how canopy was called (a flag missing or
// naming nothing): exit code 2, as for a bad flag.
type usageError struct{ error }

func (e usageError) Unwrap() error { return e.error }

func (r listRequest) run(ctx context.Context, kind string) error {
	// The columns are the UI's, drawn without color, times relative to now;
	// the order is the one each UI table starts with.
	common := views.Common{Theme: theme.New(theme.Options{NoColor: true})}
	whole := api.ListOptions{DescendantsOf: r.org, OrderBy: api.OrderName}
	switch kind {
	case "repos":
		return printList(ctx, r, r.client.ListRepos, api.RepoKey, whole, columns.Repos(common))
	case "groups":
		return printList(ctx, r, r.client.ListGroups, api.GroupKey, whole, columns.Groups(common))
	case "identities":
		return printList(ctx, r, r.client.ListIdentities, api.IdentityKey, whole, columns.Identities(common))
	case "bindings":
		opts := whole
		opts.OrderBy = api.OrderCreatedDesc
		return printList(ctx, r, r.client.ListRoleBindings, api.RoleBindingKey, opts, columns.Bindings(common))
	case "roles":
		return printList(ctx, r, r.client.ListRoles, api.RoleKey, whole, columns.Roles(common))
	case "advisories":
		opts := api.ListOptions{OrderBy: api.OrderUpdatedDesc}
		if r.repo != "" {
			opts.ArtifactNames = []string{r.repo}
		}
		return printList(ctx, r, r.client.ListAdvisories, api.AdvisoryKey, opts, columns.Advisories(common))
	case "tags":
		return r.tags(ctx, common)
	}
	return fmt.Errorf("no collection %q", kind)
}

// tags lists the tags of the organization, or of --repo; the REPO column
// needs the repos' names, as in the UI.
func (r listRequest) tags(ctx context.Context, common views.Common) error {
	opts := api.ListOptions{DescendantsOf: r.org, OrderBy: api.OrderName}
	repoNames := map[string]string{}
	ropts := api.ListOptions{DescendantsOf: r.org, Name: r.repo}
	for repo, err := range api.NewCursor(r.client.ListRepos, ropts, api.RepoKey).All(ctx) {
		if err != nil {
			return fmt.Errorf("list repos: %w", err)
		}
		repoNames[repo.UID] = repo.Name
		if r.repo != "" {
			opts = api.ListOptions{ChildrenOf: repo.UID, OrderBy: api.OrderName}
		}
	}
	if r.repo != "" && len(repoNames) == 0 {
		return fmt.Errorf("no repo named %q in %s", r.repo, r.org)
	}
	var names columns.Names
	if r.repo == "" {
		// Filled before the listing and never written after.
		names = func() func(string) string { return func(uid string) string { return repoNames[uid] } }
	}
	return printList(ctx, r, r.client.ListTags, api.TagKey, opts, columns.Tags(common, names))
}

// printList walks every page and prints the rows that pass the filter
// (and, for tags with --deprecated, the deprecated ones).
func printList[T any](ctx context.Context, r listRequest, list api.Lister[T], key func(*T) string, opts api.ListOptions, cols []table.Column[T]) error {
	var items []T
	for it, err := range api.NewCursor(list, opts, key).All(ctx) {
		if err != nil {
			return err
		}
		if t, ok := any(&it).(*api.Tag); ok && r.deprecated && !t.Deprecated {
			continue
		}
		items = append(items, it)
	}
	if !r.query.IsEmpty() {
		matches, _, err := search.Run(ctx, r.query, searchNames(items, cols), filter.Result{})
		if err != nil {
			return fmt.Errorf("filter: %w", err)
		}
		kept := make([]T, 0, len(matches))
		for _, i := range matches {
			kept = append(kept, items[i])
		}
		items = kept
	}
	if r.json {
		if items == nil {
			items = []T{}
		}
		b, err := json.MarshalIndent(items, "", "  ")
		if err != nil {
			return fmt.Errorf("encode: %w", err)
		}
		// Escaped, not changed: a JSON reader gets the server's strings back.
		_, err = io.WriteString(r.out, safe.JSON(string(b))+"\n")
		return err
	}
	rows := make([][]string, 0, len(items)+1)
	head := make([]string, len(cols))
	for i, c := range cols {
		head[i] = c.Title
	}
	rows = append(rows, head)
	for i := range items {
		row := make([]string, len(cols))
		for j, c := range cols {
			row[j] = oneLine(c.Cell(&items[i]))
		}
		rows = append(rows, row)
	}
	return writeTable(r.out, rows)
}

// oneLine is a cell as it is printed: made safe (columns do it already;
// this is the last word before the terminal), "-" when empty.
func oneLine(s string) string {
	if s == "" {
		return "-"
	}
	return safe.String(s)
}

// searchNames are what `/` searches in the UI's table of these items: the
// name, then the other columns marked Search.
func searchNames[T any](items []T, cols []table.Column[T]) search.Names {
	names := search.Names{Primary: make([]string, len(items)), Secondary: make([]string, len(items)), Rows: make([]int, len(items))}
	for i := range items {
		names.Primary[i], names.Rows[i] = cols[0].Cell(&items[i]), i
		var other []string
		for _, c := range cols[1:] {
			if c.Search {
				other = append(other, c.Cell(&items[i]))
			}
		}
		names.Secondary[i] = strings.Join(other, " ")
	}
	return names
}
