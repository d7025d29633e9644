package api

import (
	"context"
	"fmt"
	"slices"
)

// Vulnerability metadata: what the vulnerability databases say of a CVE
// or GHSA id (a summary, the details, severity scores, references), read
// by id. Reading it needs no token.

const vulnerabilityMetadataPath = "/advisory/v2/metadata"

// MaxVulnerabilityIDs is the most ids one request may name.
const MaxVulnerabilityIDs = 1000

// Kinds of a vulnerability's references.
const (
	RefAdvisory   = "TYPE_ADVISORY"
	RefArticle    = "TYPE_ARTICLE"
	RefDetection  = "TYPE_DETECTION"
	RefDiscussion = "TYPE_DISCUSSION"
	RefReport     = "TYPE_REPORT"
	RefFix        = "TYPE_FIX"
	RefIntroduced = "TYPE_INTRODUCED"
	RefPackage    = "TYPE_PACKAGE"
	RefEvidence   = "TYPE_EVIDENCE"
	RefWeb        = "TYPE_WEB"
)

// ReferenceKinds lists the kinds of references, in the service's order.
func ReferenceKinds() []string {
	return []string{RefAdvisory, RefArticle, RefDetection, RefDiscussion, RefReport, RefFix, RefIntroduced,
		RefPackage, RefEvidence, RefWeb}
}

// Reference is a link about a vulnerability and what it links to.
type Reference struct {
	Type string `json:"type,omitempty"`
	URL  string `json:"url,omitempty"`
}

// VulnerabilityMetadata is what is known of one vulnerability id.
type VulnerabilityMetadata struct {
	ID         string      `json:"id,omitempty"` // CVE-…, GHSA-…
	Summary    string      `json:"summary,omitempty"`
	Details    string      `json:"details,omitempty"`
	References []Reference `json:"references,omitempty"`
	Severities []Severity  `json:"severities,omitempty"`
}

// A vulnerability is known by its id, which is its only name.
func (v *VulnerabilityMetadata) GetUID() string    { return v.ID }
func (v *VulnerabilityMetadata) GetName() string   { return v.ID }
func (v *VulnerabilityMetadata) GetParent() string { return "" }

var _ Resource = (*VulnerabilityMetadata)(nil)

// VulnerabilityKey is a vulnerability's id.
func VulnerabilityKey(v *VulnerabilityMetadata) string { return v.ID }

// OrderID and OrderIDDesc are the orders of vulnerability metadata (by
// id, the service's default ascending).
const (
	OrderID     = "id"
	OrderIDDesc = "id desc"
)

// ListVulnerabilityMetadata lists vulnerability metadata, of
// opts.VulnerabilityIDs when set (at most MaxVulnerabilityIDs).
func (c *Client) ListVulnerabilityMetadata(ctx context.Context, opts ListOptions) (*Page[VulnerabilityMetadata], error) {
	if n := len(opts.VulnerabilityIDs); n > MaxVulnerabilityIDs {
		return nil, fmt.Errorf("vulnerability metadata of %d ids: a request names at most %d", n, MaxVulnerabilityIDs)
	}
	return list[VulnerabilityMetadata](ctx, c, vulnerabilityMetadataPath, "vulnerabilityMetadata", opts)
}

// VulnerabilitiesOf reads the metadata of the ids (CVE-…, GHSA-…), in the
// order of ids; an id the service knows nothing of has none. The pages
// read are bounded by what so many ids can take, and items beyond those
// asked for are dropped, whatever the server sends.
func (c *Client) VulnerabilitiesOf(ctx context.Context, ids []string) ([]VulnerabilityMetadata, error) {
	want := compactIDs(ids)
	if len(want) == 0 {
		return nil, nil
	}
	if len(want) > MaxVulnerabilityIDs {
		return nil, fmt.Errorf("vulnerability metadata of %d ids: a request names at most %d", len(want), MaxVulnerabilityIDs)
	}
	found := map[string]VulnerabilityMetadata{}
	opts := ListOptions{VulnerabilityIDs: want, PageSize: MaxPageSize}
	// One page more than the ids fill lets a server that pages by less
	// than asked finish, and stops one whose pages never end.
	for pages := 0; pages <= len(want)/MaxPageSize+1; pages++ {
		p, err := c.ListVulnerabilityMetadata(ctx, opts)
		if err != nil {
			return nil, err // it names the request
		}
		for _, v := range p.Items {
			if _, dup := found[v.ID]; !dup && slices.Contains(want, v.ID) {
				found[v.ID] = v
			}
		}
		if p.Last() || len(found) == len(want) {
			break
		}
		opts.PageToken = p.NextPageToken
	}
	out := make([]VulnerabilityMetadata, 0, len(found))
	for _, id := range want {
		if v, ok := found[id]; ok {
			out = append(out, v)
		}
	}
	return out, nil
}

// compactIDs are the ids without blanks or repeats, in their order.
func compactIDs(ids []string) []string {
	var out []string
	for _, id := range ids {
		if id != "" && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}
