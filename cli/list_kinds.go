package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"canopy/api"
	"canopy/theme"
	"canopy/views"
	"canopy/views/columns"
	"canopy/views/filter"
	"canopy/views/table"
)

// listRequest is what one `canopy list` asks for.
type listRequest struct {
	client *api.Client
	org    *api.Group
	// orgChecked returns once the organization is known to be there (an
	// orgError if not): it may be checked while the first pages are read
	// (checkOrgBeside), and then org holds its uid only.
	orgChecked func(context.Context) error
	repo       string       // --repo: tags of one repo, advisories of one artifact
	artifact   string       // --artifact: the artifact whose versions to list
	ecosystems []string     // --ecosystem, as the API names it; nil for every one
	query      filter.Query // --filter, as `/` in the UI
	rank       bool         // --rank: the best matches of query, ranked
	deprecated bool         // --deprecated: only deprecated tags, as D in the UI
	json       bool
	maxItems   int // --max-items: the most items read of one collection
	out        io.Writer
	notes      io.Writer // stderr, for what a script should be told but not parse (an order the server refused)
	// nouns names the items in what canopy list says of them ("the server
	// does not sort identity providers by name"), as their descriptor does.
	nouns string
	// scope is what access is asked for (--identity, --folder, --role);
	// stale is how long unseen makes a writer stale (the stale-days
	// setting, as the overview counts it), now when the answers are made.
	scope accessScope
	stale time.Duration
	now   time.Time
}

// run lists the collection canopy list names so (a descriptor's
// Collection), as collections says it is listed. The columns are the
// UI's, drawn without color, times relative to now; the order is the
// first of the kind's orders in package columns, the one its UI table
// starts with; the scope is the one its `:` command gives it.
func (r listRequest) run(ctx context.Context, name string) error {
	k, described := byCollection(name)
	c, ok := collections()[name]
	if !described || !ok {
		return fmt.Errorf("no collection %q", name)
	}
	r.nouns = k.Nouns
	return c(r, ctx, views.Common{Theme: theme.New(theme.Options{NoColor: true})})
}

// whole is the scope of a `:` table of the whole organization, in order.
func (r listRequest) whole(orderBy string) api.ListOptions {
	return api.ListOptions{DescendantsOf: r.org.UID, OrderBy: orderBy}
}

// namesShown reports whether the names a table shows for the uids a row
// holds (FOLDER, REPO, a mapping's role…) are needed: a table shows them,
// and --filter searches them, in JSON as in a table, so that both print
// the same rows. JSON alone has the uids, and needs none.
func (r listRequest) namesShown() bool { return !r.json || !r.query.IsEmpty() }

// first is the order a kind's `:` table starts with, which canopy list
// prints in.
func first(orders []table.Order) string { return orders[0].OrderBy }

func (r listRequest) repos(ctx context.Context, common views.Common) error {
	return printAcrossFolders(ctx, r, r.client.ListRepos, api.RepoKey, r.whole(first(columns.Orders())), common, columns.ReposIn)
}

// groups lists the folders with the folder each is in (FOLDER), as :groups
// shows them.
func (r listRequest) groups(ctx context.Context, common views.Common) error {
	return printAcrossFolders(ctx, r, r.client.ListGroups, api.GroupKey, r.whole(first(columns.Orders())), common, columns.GroupsIn)
}

func (r listRequest) identities(ctx context.Context, common views.Common) error {
	return printAcrossFolders(ctx, r, r.client.ListIdentities, api.IdentityKey, r.whole(first(columns.Orders())), common, columns.IdentitiesIn)
}

func (r listRequest) bindings(ctx context.Context, common views.Common) error {
	return printAcrossFolders(ctx, r, r.client.ListRoleBindings, api.RoleBindingKey, r.whole(first(columns.BindingOrders())), common, columns.BindingsIn)
}

func (r listRequest) subscriptions(ctx context.Context, common views.Common) error {
	return printAcrossFolders(ctx, r, r.client.ListSubscriptions, api.SubscriptionKey, r.whole(first(columns.SubscriptionOrders())), common, columns.SubscriptionsIn)
}

// roles are built-in and custom roles, whether or not the server lists
// the built-in ones under a folder filter; built-in first, by name
// (columns.AllRoleOrders, gathered whole as :roles does).
func (r listRequest) roles(ctx context.Context, common views.Common) error {
	folders, err := r.folders(ctx)
	if err != nil {
		return err
	}
	roles, err := r.client.RolesOf(ctx, r.org.UID)
	if err != nil {
		return fmt.Errorf("list roles: %w", err)
	}
	return printItems(ctx, r, roles, columns.RolesIn(common, folders))
}

// advisories are the feed, or one artifact's (--repo).
func (r listRequest) advisories(ctx context.Context, common views.Common) error {
	opts := api.ListOptions{OrderBy: first(columns.AdvisoryOrders())}
	if r.repo != "" {
		opts.ArtifactNames = []string{r.repo}
	}
	return printCollection(ctx, r, r.nouns, r.client.ListAdvisories, api.AdvisoryKey, opts, columns.Advisories(common))
}

func (r listRequest) libraries(ctx context.Context, common views.Common) error {
	opts := api.ListOptions{OrderBy: first(columns.LibraryOrders()), Ecosystems: r.ecosystems}
	return printCollection(ctx, r, r.nouns, r.client.ListArtifacts, api.ArtifactKey, opts, columns.Artifacts(common))
}

func (r listRequest) providers(ctx context.Context, common views.Common) error {
	return printAcrossFolders(ctx, r, r.client.ListIdentityProviders, api.IdentityProviderKey,
		r.whole(first(columns.ProviderOrders())), common, columns.ProvidersIn)
}

// An invite's code is a secret the service says once, in the answer to
// its create: a list should never hold one, and one that does (an older
// or a wrong server) has it dropped as the page is read, before any
// printer (JSON above all, which prints every field) sees it.
func (r listRequest) invites(ctx context.Context, common views.Common) error {
	withoutCodes := func(ctx context.Context, o api.ListOptions) (*api.Page[api.GroupInvite], error) {
		p, err := r.client.ListGroupInvites(ctx, o)
		if p != nil {
			for i := range p.Items {
				p.Items[i].Code = ""
			}
		}
		return p, err
	}
	return printAcrossFolders(ctx, r, withoutCodes, api.GroupInviteKey, r.whole(first(columns.InviteOrders())), common, columns.InvitesIn)
}

// mappings: a mapping has no name, so the server's order. Their roles, identity providers and scope are
// named as that table names them, from the organization's roles and
// providers read once first (JSON without --filter has the uids only, so
// needs neither).
func (r listRequest) mappings(ctx context.Context, common views.Common) error {
	var names columns.MappingNames
	if r.namesShown() {
		roles, err := r.client.RolesOf(ctx, r.org.UID)
		if err != nil {
			return fmt.Errorf("list roles: %w", err)
		}
		roleNames, providers := map[string]string{}, map[string]string{}
		for _, role := range roles {
			roleNames[role.UID] = role.Name
		}
		// --max-items bounds the rows listed, not what their columns look up.
		opts := api.ListOptions{DescendantsOf: r.org.UID, PageSize: api.MaxPageSize}
		_, err = pages(ctx, "identity providers", r.client.ListIdentityProviders, api.IdentityProviderKey, opts, defaultMaxItems,
			func(ps []api.IdentityProvider) error {
				for _, p := range ps {
					providers[p.UID] = p.Name
				}
				return nil
			})
		if err != nil {
			return fmt.Errorf("list identity providers: %w", err)
		}
		// Each filled before the listing and never written after.
		fixed := func(m map[string]string) columns.Names {
			return func() func(string) string { return func(uid string) string { return m[uid] } }
		}
		names = columns.MappingNames{Roles: fixed(roleNames), Providers: fixed(providers),
			Scopes: fixed(map[string]string{r.org.UID: r.org.Name})}
	}
	return printCollection(ctx, r, r.nouns, r.client.ListExternalGroupRoleMappings, api.ExternalGroupRoleMappingKey,
		r.whole(first(columns.MappingOrders())), columns.Mappings(common, names))
}

// printCollection walks a collection and prints each page as it arrives.
func printCollection[T any](ctx context.Context, r listRequest, noun string, lister api.Lister[T], key func(*T) string, opts api.ListOptions, cols []table.Column[T]) error {
	return printWalk(ctx, r, noun, lister, key, opts, cols, nil, nil)
}

// printAcrossFolders is printCollection for a collection whose rows span
// the organization's folders: its columns name each row's (FOLDER), from
// the folders listed once first.
func printAcrossFolders[T any](ctx context.Context, r listRequest, lister api.Lister[T], key func(*T) string, opts api.ListOptions,
	common views.Common, cols func(views.Common, columns.Folders) []table.Column[T]) error {
	folders, err := r.folders(ctx)
	if err != nil {
		return err
	}
	return printCollection(ctx, r, r.nouns, lister, key, opts, cols(common, folders))
}

// printWalk walks a collection and prints the items of each page that keep
// holds for (nil: every one) as the page arrives, as far as ready (nil:
// every item at once) says what their columns read of them is at hand: the
// first items of a page are printed while the lookups of the others run.
// What was printed stays printed when the walk fails or is stopped.
func printWalk[T any](ctx context.Context, r listRequest, noun string, lister api.Lister[T], key func(*T) string, opts api.ListOptions,
	cols []table.Column[T], keep func(*T) bool, ready readyItems[T]) error {
	p := newPrinter(r, cols)
	var notReady error // what ready failed with: the walk's error is not the server's answer about this collection
	err := walk(ctx, r, noun, lister, key, opts, func(items []T) error {
		if keep != nil {
			items = slices.DeleteFunc(items, func(it T) bool { return !keep(&it) })
		}
		if len(items) > 0 {
			if notReady = r.orgChecked(ctx); notReady != nil {
				return errNotReady
			}
		}
		for ready != nil && len(items) > 0 {
			n, err := ready(ctx, items)
			if err != nil {
				notReady = err
				return errNotReady
			}
			if err := p.add(ctx, items[:n]); err != nil {
				return err
			}
			items = items[n:]
		}
		return p.add(ctx, items)
	})
	if notReady == nil {
		// However the walk ended (an organization that is not there may
		// list as empty, or fail), the organization's check says first.
		notReady = r.orgChecked(ctx)
	}
	if notReady != nil {
		err = notReady
	}
	if cerr := p.close(ctx, err != nil); err == nil {
		err = cerr
	}
	return err
}

// readyItems returns how many of items, from the first, have their
// columns' lookups settled, at least one, once the first has (or with the
// error of its lookup, or ctx's).
type readyItems[T any] func(ctx context.Context, items []T) (int, error)

// errNotReady ends a walk whose rows' columns could not be read: printWalk
// returns why instead.
var errNotReady = errors.New("the columns' lookup failed")

// folders is the FOLDER column's resolver for a table spanning the
// organization's folders, as the UI's `:` tables show it: the folders are
// listed once, before any row is printed. JSON has no FOLDER column, so
// without --filter it needs none (nil).
func (r listRequest) folders(ctx context.Context) (columns.Folders, error) {
	if !r.namesShown() {
		return nil, nil
	}
	// --max-items bounds the rows listed, not what their columns look up.
	names, err := folderNames(ctx, r.client, r.org.UID, defaultMaxItems)
	if err != nil {
		return nil, err
	}
	return columns.Folders(folderPaths(r.org, names)), nil
}

// tags lists the tags of the organization, or of --repo. The REPO column
// names each tag's repo, as in the UI: a table shows it, and --filter
// searches it (in JSON too); the repos a page names are looked up as the
// page arrives (lookRepos). JSON without --filter needs none of them.
func (r listRequest) tags(ctx context.Context, common views.Common) error {
	opts := api.ListOptions{DescendantsOf: r.org.UID, OrderBy: first(columns.TagOrders())}
	var keep func(*api.Tag) bool
	if r.deprecated {
		keep = func(t *api.Tag) bool { return t.Deprecated }
	}
	if r.repo != "" {
		repo, err := r.repoNamed(ctx)
		if err != nil {
			return err
		}
		opts = api.ListOptions{ChildrenOf: repo.UID, OrderBy: first(columns.TagOrders())}
		return printWalk(ctx, r, r.nouns, r.client.ListTags, api.TagKey, opts, columns.Tags(common, nil), keep, nil)
	}
	if !r.namesShown() {
		return printWalk(ctx, r, r.nouns, r.client.ListTags, api.TagKey, opts, columns.Tags(common, nil), keep, nil)
	}
	repos, stop := r.lookRepos(ctx)
	defer stop()
	return printWalk(ctx, r, r.nouns, repos.lister(r.client.ListTags, keep), api.TagKey, opts, columns.Tags(common, repos.column()), keep, repos.ready)
}

// versions lists the versions of --artifact, as the table an artifact of
// :libraries opens.
func (r listRequest) versions(ctx context.Context, common views.Common) error {
	art, err := r.findArtifact(ctx)
	if err != nil {
		return err
	}
	of := func(ctx context.Context, o api.ListOptions) (*api.Page[api.ArtifactVersion], error) {
		return r.client.ListArtifactVersions(ctx, art.UID, o)
	}
	noun := "versions of " + art.Name
	err = printWalk(ctx, r, noun, of, api.ArtifactVersionKey, api.ListOptions{OrderBy: first(columns.VersionOrders())}, columns.Versions(common), nil, nil)
	if e, ok := api.AsError(err); ok && art.guessed && api.IsNotFound(err) {
		return fmt.Errorf("no library artifact named %q or with that uid%s: %w", r.artifact, r.inEcosystems(), e)
	}
	return err
}

// artifactRef is the artifact --artifact names.
type artifactRef struct {
	UID, Name string
	guessed   bool // no artifact has this name: taken for a uid, unchecked
}

// findArtifact resolves --artifact among the artifacts: by name (what
// people type), else by uid. The service has no call that gets one
// artifact, so the artifacts whose text holds the value are searched
// (query), and a value no name matches is taken for a uid: its versions
// tell whether it is one.
func (r listRequest) findArtifact(ctx context.Context) (artifactRef, error) {
	opts := api.ListOptions{Query: r.artifact, Ecosystems: r.ecosystems}
	found, err := collect(ctx, r, "libraries", r.client.ListArtifacts, api.ArtifactKey, opts)
	if err != nil {
		return artifactRef{}, err
	}
	found = slices.DeleteFunc(found, func(a api.Artifact) bool { return a.Name != r.artifact && a.UID != r.artifact })
	switch len(found) {
	case 0:
		return artifactRef{UID: r.artifact, Name: r.artifact, guessed: true}, nil
	case 1:
		return artifactRef{UID: found[0].UID, Name: found[0].Name}, nil
	}
	// The same name in two ecosystems: which one is for the user to say.
	var names []string
	for _, a := range found {
		names = append(names, fmt.Sprintf("%s (%s, uid %s)", a.Name, ecosystemName(a.Ecosystem), a.UID))
	}
	return artifactRef{}, usageError{fmt.Errorf("--artifact %q names %d artifacts: %s; choose one with --ecosystem or by uid",
		r.artifact, len(found), strings.Join(names, ", "))}
}

// inEcosystems is " in java" when --ecosystem narrowed the search.
func (r listRequest) inEcosystems() string {
	if len(r.ecosystems) == 0 {
		return ""
	}
	names := make([]string, len(r.ecosystems))
	for i, e := range r.ecosystems {
		names[i] = ecosystemName(e)
	}
	return " in " + strings.Join(names, ", ")
}
