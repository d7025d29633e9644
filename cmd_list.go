package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"canopy/api"
	"canopy/theme"
	"canopy/views"
	"canopy/views/columns"
	"canopy/views/filter"
	"canopy/views/table"
)

// listKinds are the collections `canopy list` prints, as the UI's
// commands of the same names list them.
func listKinds() []string {
	return []string{"repos", "tags", "groups", "identities", "bindings", "roles", "advisories"}
}

// listRequest is what one `canopy list` asks for.
type listRequest struct {
	client *api.Client
	org    string
	repo   string       // --repo: tags of one repo, advisories of one artifact
	query  filter.Query // --filter, as `/` in the UI
	json   bool
	out    io.Writer
}

// runList prints a collection as the UI's table shows it (same client,
// same paging, same columns), or as JSON, for scripts.
func runList(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("canopy list", flag.ContinueOnError)
	fs.SetOutput(stderr)
	uf := uiFlags{settings: []string{"api-url", "audience", "org", "token-file", "page-size"}}
	uf.register(fs)
	output := fs.String("o", "table", "output: table or json")
	filterText := fs.String("filter", "", "keep rows whose name matches, as / does in the UI (fuzzy; !text excludes, re:expr is a regular expression)")
	repo := fs.String("repo", "", "tags: only this repo's; advisories: only this artifact's")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), `Usage: canopy list %s [flags]

Print a collection of the organization, as the UI's table of the same name
shows it (-o table), or as a JSON array of the API's resources (-o json).

Flags:
`, strings.Join(listKinds(), "|"))
		fs.PrintDefaults()
	}
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		if code, done := parse(fs, args, stdout); done {
			return code
		}
		fmt.Fprintf(stderr, "canopy list: say what to list: %s\n", strings.Join(listKinds(), ", "))
		return exitUsage
	}
	kind := args[0]
	if !slices.Contains(listKinds(), kind) {
		fmt.Fprintf(stderr, "canopy list: no collection %q (want one of %s)\n", kind, strings.Join(listKinds(), ", "))
		return exitUsage
	}
	if code, done := parse(fs, args[1:], stdout); done {
		return code
	}
	if *output != "table" && *output != "json" {
		fmt.Fprintf(stderr, "canopy list: -o %q: want table or json\n", *output)
		return exitUsage
	}
	cfg, err := resolve(uf.set, *uf.config, getenv, pathsFrom(getenv))
	if err != nil {
		fmt.Fprintf(stderr, "canopy list: %v\n", err)
		return exitUsage
	}
	client, err := api.New(api.Options{BaseURL: cfg.get("api-url"), TokenSource: cfg.tokenSource(), PageSize: cfg.pageSize()})
	if err != nil {
		fmt.Fprintf(stderr, "canopy list: %v\n", err)
		return exitUsage
	}
	org, err := pickOrg(ctx, client, cfg.get("org"))
	if err != nil {
		fmt.Fprintf(stderr, "canopy list: %v\n", err)
		return exitCode(err)
	}
	req := listRequest{client: client, org: org, repo: *repo, query: filter.ParseQuery(*filterText), json: *output == "json", out: stdout}
	if err := req.run(ctx, kind); err != nil {
		fmt.Fprintf(stderr, "canopy list: %v\n", err)
		return exitCode(err)
	}
	return exitOK
}

// exitCode tells an unreachable server (3) from other failures (1).
func exitCode(err error) int {
	var te *api.TransportError
	if errors.As(err, &te) {
		return exitNoServer
	}
	return exitFailure
}

// pickOrg is the organization to list: the one given (by uid, or by
// name, as people remember it), else the only one the token sees.
func pickOrg(ctx context.Context, c *api.Client, org string) (string, error) {
	if api.IsGroupUID(org) {
		return org, nil
	}
	var names []string
	found := ""
	for g, err := range api.NewCursor(c.ListGroups, api.ListOptions{InRoot: true}, api.GroupKey).All(ctx) {
		if err != nil {
			return "", fmt.Errorf("list organizations: %w", err)
		}
		if org == "" || g.Name == org {
			found = g.UID
		}
		names = append(names, fmt.Sprintf("%s (%s)", g.Name, g.UID))
	}
	switch {
	case len(names) == 0:
		return "", errors.New("this token sees no organization")
	case org != "" && found == "":
		return "", fmt.Errorf("no organization %q; the token sees %s", org, strings.Join(names, ", "))
	case org != "" || len(names) == 1:
		return found, nil
	}
	return "", fmt.Errorf("the token sees %d organizations; choose one with --org or CANOPY_ORG: %s", len(names), strings.Join(names, ", "))
}

func (r listRequest) run(ctx context.Context, kind string) error {
	// The columns are the UI's, drawn without color, times relative to now.
	common := views.Common{Theme: theme.New(theme.Options{NoColor: true})}
	whole := api.ListOptions{DescendantsOf: r.org}
	switch kind {
	case "repos":
		return printList(ctx, r, r.client.ListRepos, api.RepoKey, whole, columns.Repos(common))
	case "groups":
		return printList(ctx, r, r.client.ListGroups, api.GroupKey, whole, columns.Groups(common))
	case "identities":
		return printList(ctx, r, r.client.ListIdentities, api.IdentityKey, whole, columns.Identities(common))
	case "bindings":
		return printList(ctx, r, r.client.ListRoleBindings, api.RoleBindingKey, whole, columns.Bindings(common))
	case "roles":
		return printList(ctx, r, r.client.ListRoles, api.RoleKey, whole, columns.Roles(common))
	case "advisories":
		opts := api.ListOptions{}
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
	opts := api.ListOptions{DescendantsOf: r.org}
	repoNames := map[string]string{}
	ropts := api.ListOptions{DescendantsOf: r.org, Name: r.repo}
	for repo, err := range api.NewCursor(r.client.ListRepos, ropts, api.RepoKey).All(ctx) {
		if err != nil {
			return fmt.Errorf("list repos: %w", err)
		}
		repoNames[repo.UID] = repo.Name
		if r.repo != "" {
			opts = api.ListOptions{ChildrenOf: repo.UID}
		}
	}
	if r.repo != "" && len(repoNames) == 0 {
		return fmt.Errorf("no repo named %q in %s", r.repo, r.org)
	}
	var names columns.Names
	if r.repo == "" {
		names = func(uid string) string { return repoNames[uid] }
	}
	return printList(ctx, r, r.client.ListTags, api.TagKey, opts, columns.Tags(common, names))
}

// printList walks every page and prints the rows that pass the filter.
func printList[T any](ctx context.Context, r listRequest, list api.Lister[T], key func(*T) string, opts api.ListOptions, cols []table.Column[T]) error {
	var items []T
	for it, err := range api.NewCursor(list, opts, key).All(ctx) {
		if err != nil {
			return err
		}
		items = append(items, it)
	}
	if !r.query.IsEmpty() {
		names := make([]string, len(items))
		for i := range items {
			names[i] = cols[0].Cell(&items[i])
		}
		res, err := filter.Filter(ctx, r.query, names)
		if err != nil {
			return fmt.Errorf("filter: %w", err)
		}
		kept := make([]T, 0, len(res.Matches))
		for _, m := range res.Matches {
			kept = append(kept, items[m.Index])
		}
		items = kept
	}
	if r.json {
		if items == nil {
			items = []T{}
		}
		enc := json.NewEncoder(r.out)
		enc.SetIndent("", "  ")
		return enc.Encode(items)
	}
	tw := tabwriter.NewWriter(r.out, 0, 4, 2, ' ', 0)
	for i, c := range cols {
		fmt.Fprint(tw, c.Title, sep(i, len(cols)))
	}
	for i := range items {
		for j, c := range cols {
			fmt.Fprint(tw, oneLine(c.Cell(&items[i])), sep(j, len(cols)))
		}
	}
	return tw.Flush()
}

func sep(i, n int) string {
	if i == n-1 {
		return "\n"
	}
	return "\t"
}

// oneLine keeps a cell on its row: tabs and newlines would break the
// columns (the cell is already made safe by its column).
func oneLine(s string) string {
	if s == "" {
		return "-"
	}
	return strings.NewReplacer("\t", " ", "\n", " ").Replace(s)
}
