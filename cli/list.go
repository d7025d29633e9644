package cli

import (
	"context"
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
	"canopy/cli/config"
	"canopy/cli/exit"
	"canopy/resource"
	"canopy/text"
	"canopy/views/filter"
)

// listFlags are canopy list's flags: the settings that reach an API, and
// what to list.
type listFlags struct {
	ui                                        uiFlags
	output, filter, repo, artifact, ecosystem *string
	deprecated, rank                          *bool
	maxItems                                  *int
	identity, folder, role                    *string // access: whose, where, which role's
}

func (f *listFlags) register(fs *flag.FlagSet) {
	f.ui.settings = []string{"api-url", "allow-insecure-http", "audience", "org", "token-file", "page-size"}
	f.ui.register(fs)
	f.output = fs.String("o", "table", "output: table or json")
	f.filter = fs.String("filter", "", "print the rows that match, as / finds them in the UI (the name, then the other columns; fuzzy; !text excludes, re:expr is a regular expression), each page's as it arrives, in the list's order")
	f.rank = fs.Bool("rank", false, fmt.Sprintf("with --filter: print the best matches first, ranked as / ranks them (the name's matches, best first, then the other columns'), once every page is read; at most the %s best (a line on stderr says how many more matched)", text.Count(rankMax)))
	f.repo = fs.String("repo", "", "tags: only this repo's (a name, a path as folder/name, or a uid); advisories: only this artifact's; documents: only this package's")
	f.deprecated = fs.Bool("deprecated", false, "tags: only deprecated ones, as D shows them in the UI (every page is read)")
	f.artifact = fs.String("artifact", "", "versions: list the versions of this library artifact, by `NAME|UID`")
	f.ecosystem = fs.String("ecosystem", "", "libraries, versions: only artifacts of this ecosystem, `java|python` (default: both)")
	f.identity = fs.String("identity", "", "access: one identity's, at each folder where it holds some (with --folder: at that folder), by `NAME|UID`")
	f.folder = fs.String("folder", "", "access: at this folder, by `PATH|UID` (\"apps/web\"; \"/\" is the organization, the default)")
	f.role = fs.String("role", "", "access: each binding of this role, by `NAME|UID`")
	f.maxItems = fs.Int("max-items", defaultMaxItems, "read at most this many `items` of a collection, then stop with exit status 1 (a server whose pages never end stops there)")
}

// check refuses flags that do not apply to the collection: ignoring one
// would print every row to a script that meant some of them; and asks
// for the flag its kind Needs.
func (f *listFlags) check(k resource.Kind) error {
	switch {
	case !slices.Contains(outputFormats(), *f.output):
		return fmt.Errorf("-o %q: want table or json", *f.output)
	case *f.maxItems < 1:
		return fmt.Errorf("--max-items %d: want 1 or more", *f.maxItems)
	case *f.rank && *f.filter == "":
		return errors.New("--rank ranks the matches of --filter: give --filter too")
	}
	for _, sf := range f.scopedFlags() {
		switch {
		case sf.given && !slices.Contains(k.Flags, sf.name):
			return fmt.Errorf("--%s applies to %s only", sf.name, takers(sf.name))
		case !sf.given && k.Needs == "--"+sf.name && k.Ask != "":
			return errors.New(k.Ask)
		case !sf.given && k.Needs == "--"+sf.name:
			return fmt.Errorf("%s needs %s", k.Collection, k.Needs)
		}
	}
	if _, err := ecosystemsOf(*f.ecosystem); err != nil {
		return err
	}
	if k.Collection == accessCollection {
		if err := f.checkAccess(); err != nil {
			return err
		}
	}
	if q := filter.ParseQuery(*f.filter); q.Kind == filter.Regexp {
		if _, err := regexp.Compile(q.Pattern); err != nil {
			return fmt.Errorf("--filter %q: not a regular expression: %w", *f.filter, err)
		}
	}
	return nil
}

// ecosystemsOf is --ecosystem as the API names it: "java" (or
// ECOSYSTEM_JAVA) is [ECOSYSTEM_JAVA]; "" is none, which the client takes
// for every ecosystem.
func ecosystemsOf(short string) ([]string, error) {
	if short == "" {
		return nil, nil
	}
	var names []string
	for _, e := range api.Ecosystems() {
		name := ecosystemName(e)
		if strings.EqualFold(short, name) || strings.EqualFold(short, e) {
			return []string{e}, nil
		}
		names = append(names, name)
	}
	return nil, fmt.Errorf("--ecosystem %q: want %s", short, strings.Join(names, " or "))
}

// ecosystemNames are the ecosystems as --ecosystem takes them.
func ecosystemNames() []string {
	var names []string
	for _, e := range api.Ecosystems() {
		names = append(names, ecosystemName(e))
	}
	return names
}

// ecosystemName is an ecosystem as the ECOSYSTEM column shows it ("java").
func ecosystemName(e string) string { return strings.ToLower(strings.TrimPrefix(e, "ECOSYSTEM_")) }

// runList prints a collection as the UI's table shows it (same client,
// same paging, same order, same columns), or as JSON, for scripts. It
// prints the same on a terminal as into a pipe: a table is as useful on
// screen, and what it prints is made safe either way.
func runList(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("canopy list", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var lf listFlags
	lf.register(fs)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), listUsage, strings.Join(listNames(), "|"), collectionUsage(), text.Count(rankMax))
		fs.PrintDefaults()
	}
	pos, code, done := parseArgs(fs, args, stdout)
	switch {
	case done:
		return code
	case len(pos) == 0:
		exit.Sayf(stderr, "canopy list: say what to list: %s", strings.Join(listNames(), ", "))
		return exit.Usage
	case len(pos) > 1:
		exit.Sayf(stderr, "canopy list: unexpected argument %q (one collection at a time)", pos[1])
		return exit.Usage
	}
	kind := pos[0]
	k, _, err := collectionNamed(kind)
	if err != nil {
		exit.Sayf(stderr, "canopy list: %v", err)
		return exit.Usage
	}
	if err := lf.check(k); err != nil {
		exit.Sayf(stderr, "canopy list: %v", err)
		return exit.Usage
	}
	cfg, err := exit.Step(ctx, func() (*config.Settings, error) {
		return config.Resolve(lf.ui.set, *lf.ui.config, getenv, config.PathsFrom(getenv))
	})
	if err != nil {
		return exit.Fail(ctx, stderr, "canopy list", "reading the config", err, exit.Usage)
	}
	logger, closeLog := lf.ui.debugLogger(getenv, stderr)
	defer closeLog()
	tokens := cfg.TokenSource(ctx)
	client, err := api.New(api.Options{BaseURL: cfg.Get("api-url"), TokenSource: tokens, PageSize: cfg.PageSize(), Logger: logger,
		Retry: retryIn(ctx, scriptRetry()), AllowInsecureHTTP: cfg.Flag("allow-insecure-http")})
	if err != nil {
		return clientRefused(stderr, "canopy list", err)
	}
	// The token chain sees no context (a token file that is a FIFO,
	// chainctl waiting on the network): it is read first, as a step a
	// signal ends, and the requests then use the token it keeps.
	if _, err := exit.StepSaying(ctx, stderr, "canopy list: getting a token…", tokens.Token); err != nil {
		return exit.Fail(ctx, stderr, "canopy list", "getting a token", err, exit.Failure)
	}
	passedOver(stderr, "canopy list", tokens)
	return lf.ui.prof.profiled(ctx, stderr, "canopy list", func() int {
		// The feeds belong to no organization: one is resolved only when
		// named (and then it must exist).
		org, orgChecked := &api.Group{}, func(context.Context) error { return nil }
		switch given := cfg.Get("org"); {
		case k.Feed && given == "":
		case api.IsGroupUID(given) && kind == "tags" && *lf.repo == "":
			org, orgChecked = &api.Group{UID: given}, checkOrgBeside(ctx, client, given)
		default:
			if org, err = pickOrg(ctx, client, given, defaultMaxItems); err != nil {
				return exit.Fail(ctx, stderr, "canopy list", "finding the organization", err, exitCode(err))
			}
		}
		ecosystems, _ := ecosystemsOf(*lf.ecosystem) // checked above
		req := listRequest{client: client, org: org, orgChecked: orgChecked, repo: *lf.repo, artifact: *lf.artifact, ecosystems: ecosystems,
			query: filter.ParseQuery(*lf.filter), rank: *lf.rank, deprecated: *lf.deprecated, json: *lf.output == "json", maxItems: *lf.maxItems,
			out: stdout, notes: stderr,
			scope: accessScope{identity: *lf.identity, folder: *lf.folder, role: *lf.role}, stale: cfg.Stale(), now: time.Now()}
		if err := req.run(ctx, kind); err != nil {
			var notThere orgError
			if errors.As(err, &notThere) {
				return exit.Fail(ctx, stderr, "canopy list", "finding the organization", notThere.error, exitCode(notThere.error))
			}
			return exit.Fail(ctx, stderr, "canopy list", "listing "+kind+" (what was read is printed)", err, exitCode(err))
		}
		return exit.OK
	})
}

const listUsage = `Usage: canopy list %s [flags]

Print a collection as the UI's table of the same name shows it, with the
same columns and in the same order (-o table), or as a JSON array of the
API's resources (-o json). Flags may come before or after the collection.

%s
Where the server does not sort a collection in the UI's order, it is
listed in the server's default order, and a line on stderr says so.

Rows are printed as the pages arrive (a table in chunks of 1,000 rows,
each column as wide as its widest cell so far). With --filter, the
matches of each page are printed as it arrives, in the list's order;
with --rank too, the best %s are kept and printed once every page is
read, ranked as / ranks them. What was read is printed whatever ends the
listing. A server whose pages never end is
stopped, with a line on stderr and exit status 1: when it sends more than
its own total (plus a tenth and a page), or --max-items items.

Exit status: 0 done; 1 a failure (an API error; an organization, repo,
artifact, identity, folder or role that does not exist or that the token
cannot see; a listing stopped); 2 a usage mistake; 3 the API could not be
connected to; 130, 143 or 129 interrupted by SIGINT, SIGTERM or SIGHUP;
141 the reader closed the pipe (canopy list ... | head), killed by SIGPIPE.

Flags:
`

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
		return exit.NoServer
	case errors.As(err, &usage):
		return exit.Usage
	}
	return exit.Failure
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
