package emulator

import (
	"fmt"
	"sync"
	"unicode/utf8"

	"canopy/api"
)

// A repo's readme is updated as a resource of its own, masked: its text
// only (its uid is the repo's, from the path). The text must be Markdown,
// which is text: valid UTF-8 without control characters but tabs and line
// ends (JSON carries nothing but UTF-8); and at most maxReadme bytes. A synced repo takes its readme from
// its source.

// maxReadme bounds a readme the emulator takes (the vendor states no
// bound; canopy's pane keeps as much).
const maxReadme = 512 << 10

var readmeSpec = sync.OnceValue(func() *maskSpec {
	return &maskSpec{
		fields:    map[string]string{"uid": "uid", "content": "content"},
		updatable: []string{"content"},
		fixed:     map[string]string{"uid": "it is the repo's uid, given by the path"}}
})

func (c *call) patchReadme(uid string) *apiErr {
	if e := c.p.require(domainRegistry, capRepoUpdate, uid, true); e != nil {
		return e
	}
	id, ok := c.st.repos.find(uid)
	if !ok {
		return notFound(domainRegistry, typeRepo, uid)
	}
	var body api.RepoReadme
	raw, e := decodePatch(c, domainRegistry, &body)
	if e != nil {
		return e
	}
	mask, e := c.updateMask(domainRegistry, raw, readmeSpec())
	if e != nil {
		return e
	}
	if body.UID != "" && body.UID != uid {
		return badField(domainRegistry, "repo_readme.uid", fmt.Sprintf("the body names %q, the path %q", body.UID, uid))
	}
	cur := c.st.repos.items[id]
	if len(mask) == 0 {
		writeJSON(c.w, api.RepoReadme{UID: uid, Content: cur.readme()})
		return nil
	}
	if cur.SyncConfig != nil {
		return badField(domainRegistry, "repo_readme.content", fmt.Sprintf("this repo syncs from %s, which its readme comes from: it cannot be changed here",
			cur.SyncConfig.Source))
	}
	if why := notMarkdown(body.Content); why != "" {
		return badField(domainRegistry, "repo_readme.content", why)
	}
	if body.Content != cur.readme() {
		next := cur.Repo
		next.UpdateTime = c.now()
		c.st.repos.update(id, repoRec{Repo: next, Readme: body.Content})
	}
	writeJSON(c.w, api.RepoReadme{UID: uid, Content: body.Content})
	return nil
}

// notMarkdown says why a text is not a readme the service takes, "" when
// it is one.
func notMarkdown(s string) string {
	if len(s) > maxReadme {
		return fmt.Sprintf("is %d bytes: a readme is at most %d", len(s), maxReadme)
	}
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r < 0x20 && r != '\t' && r != '\n' && r != '\r', r == 0x7f:
			return fmt.Sprintf("is not Markdown: control character %U at byte %d", r, i)
		}
		i += n
	}
	return ""
}
