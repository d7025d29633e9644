package tree

// The kinds these tests build trees of, as the shell's registry describes
// them.
var (
	KindOrg        = &Kind{Name: "organization", Group: true, Binds: true, Creates: true}
	KindFolder     = &Kind{Name: "folder", Group: true, Binds: true, Creates: true, Deletes: true}
	KindRepos      = &Kind{Name: "repos", Collection: true, Creates: true}
	KindRepo       = &Kind{Name: "repo", Flags: true, Creates: true, Deletes: true}
	KindTag        = &Kind{Name: "tag", Deletes: true}
	KindAdvisories = &Kind{Name: "advisories", Collection: true}
	KindAdvisory   = &Kind{Name: "advisory"}
)
