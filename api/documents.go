package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
)

// Security advisory documents: the advisory data as the distributions
// publish it, one document per origin package, holding every advisory of
// the package (its CGA id, the CVE and GHSA ids it goes by, and its
// lifecycle events). The call is not paged: the service answers every
// document that matches at once, so canopy reads at most MaxDocuments of
// them and says when it stopped there.

const documentsPath = "/advisory/v2/documents"

// MaxDocuments is the most documents canopy reads of one answer: the
// first ones are kept and the rest is not read (Documents.Cut).
const MaxDocuments = 1000

// Document is the advisories of one origin package.
type Document struct {
	// ID is the origin package's name.
	ID         string             `json:"id,omitempty"`
	Advisories []DocumentAdvisory `json:"advisories,omitempty"`
}

// DocumentAdvisory is one advisory of a document.
type DocumentAdvisory struct {
	ID     string          `json:"id,omitempty"` // CGA-…
	Events []DocumentEvent `json:"events,omitempty"`
	// Aliases are the other ids of the vulnerability (CVE-…, GHSA-…).
	Aliases []string `json:"aliases,omitempty"`
	// PackageNamespace is the distribution the package comes from
	// ("wolfi", "chainguard").
	PackageNamespace string `json:"packageNamespace,omitempty"`
}

// DocumentEvent is one step of a document advisory's lifecycle: when, and
// what it says, as an advisory event's kind and details are (Kind is the
// JSON key its details came under).
type DocumentEvent struct {
	Timestamp Time         `json:"timestamp,omitzero"`
	Kind      string       `json:"-"`
	Details   EventDetails `json:"-"`
}

// documentCommon are the keys of a document event beside its kind.
var documentCommon = []string{"timestamp"}

// UnmarshalJSON reads the time and finds the kind by its key.
func (e *DocumentEvent) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return fmt.Errorf("document event: %w", err)
	}
	*e = DocumentEvent{}
	if t, ok := raw["timestamp"]; ok && string(t) != "null" {
		if err := json.Unmarshal(t, &e.Timestamp); err != nil {
			return fmt.Errorf("document event: timestamp: %w", err)
		}
	}
	e.Kind, e.Details = eventKind(raw, documentCommon)
	e.Details = scanNames(e.Details, 1, 0)
	return nil
}

// documentScanNames are the members of a scan's detection that a document
// names otherwise than an advisory event (advisory/v2's
// DetectionTypeScanV1 against vulnerabilities/v2's ScanV1): the event's
// name, then the document's. A document event's Facts are kept by the
// event's names, so that both read alike (Event).
var documentScanNames = [][2]string{{"component", "componentName"}, {"subpackage", "subpackageName"}}

// scanNames is d with a scan's facts renamed from one naming to the other
// (0: an advisory event's, 1: a document's); a new map, as d's may be
// shared.
func scanNames(d EventDetails, from, to int) EventDetails {
	if d.Detection != "scanv1" || d.Facts == nil {
		return d
	}
	facts := make(map[string]string, len(d.Facts))
	for k, v := range d.Facts {
		for _, n := range documentScanNames {
			if k == n[from] {
				k = n[to]
			}
		}
		facts[k] = v
	}
	d.Facts = facts
	return d
}

// MarshalJSON writes the event as the service does: its time and the
// kind's key holding its details.
func (e DocumentEvent) MarshalJSON() ([]byte, error) {
	type plain DocumentEvent
	b, err := json.Marshal(plain(e))
	if err != nil {
		return nil, fmt.Errorf("document event: %w", err)
	}
	out, err := withKind(b, e.Kind, scanNames(e.Details, 0, 1), documentCommon)
	if err != nil {
		return nil, fmt.Errorf("document event: %w", err)
	}
	return out, nil
}

// Event is the document event as an advisory event (its time the event's
// creation), for what reads either alike.
func (e *DocumentEvent) Event() AdvisoryEvent {
	return AdvisoryEvent{CreateTime: e.Timestamp, Kind: e.Kind, Details: e.Details}
}

// Latest is the advisory's most recent event (the last one sent among
// those of the latest time), or nil when it has none.
func (a *DocumentAdvisory) Latest() *DocumentEvent {
	var last *DocumentEvent
	for i := range a.Events {
		if last == nil || !a.Events[i].Timestamp.Before(last.Timestamp) {
			last = &a.Events[i]
		}
	}
	return last
}

// A document is known by its package, which is its only id.
func (d *Document) GetUID() string    { return d.ID }
func (d *Document) GetName() string   { return d.ID }
func (d *Document) GetParent() string { return "" }

var _ Resource = (*Document)(nil)

// DocumentKey is a document's package.
func DocumentKey(d *Document) string { return d.ID }

// documentsAnswer is the answer of ListDocuments, as decodeDocuments reads
// it a document at a time.
type documentsAnswer struct {
	Documents []Document `json:"documents,omitempty"`
}

// DocumentFilter narrows ListDocuments: the document of one package, the
// documents of advisories going by any of the vulnerability ids. Zero
// fields are not sent.
type DocumentFilter struct {
	Package string
	CVEs    []string
}

// Documents is what ListDocuments read: the documents, and Cut when the
// answer held more than canopy reads (MaxDocuments, or the bounds of one
// answer) and Items are the first of them.
type Documents struct {
	Items []Document
	Cut   bool
}

// ListDocuments lists the advisory documents that match f.
func (c *Client) ListDocuments(ctx context.Context, f DocumentFilter) (*Documents, error) {
	q := url.Values{}
	if f.Package != "" {
		q.Set("id", f.Package)
	}
	for _, id := range f.CVEs {
		q.Add("cves", id)
	}
	out := &Documents{}
	k := call{method: http.MethodGet, path: documentsPath, query: q, stream: func(r io.Reader) error {
		return decodeDocuments(r, out, MaxDocuments)
	}}
	err := c.do(ctx, k, nil)
	if err != nil && len(out.Items) > 0 && (errors.Is(err, ErrTooManyValues) || errors.Is(err, ErrResponseTooLarge)) {
		// The answer went past a bound within a document: the ones
		// before it are whole, and are what canopy reads.
		out.Cut = true
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

// decodeDocuments reads a ListDocuments answer into out as it arrives: the
// documents one at a time, up to max; the rest is left unread (out.Cut).
// Other keys are skipped. Each document read whole is kept in out even when
// a later one fails, for the caller to decide what to make of them.
func decodeDocuments(r io.Reader, out *Documents, max int) error {
	dec := json.NewDecoder(r)
	start, err := dec.Token()
	switch {
	case err != nil:
		return err
	case start == nil:
		return atEnd(dec)
	case start != json.Delim('{'):
		return fmt.Errorf("the answer is %s, not an object", tokenKind(start))
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return err
		}
		if k != "documents" {
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return err
			}
			continue
		}
		open, err := dec.Token()
		switch {
		case err != nil:
			return err
		case open == nil:
			continue
		case open != json.Delim('['):
			return fmt.Errorf("documents is %s, not a list", tokenKind(open))
		}
		out.Items = nil // a repeated key counts as its last value
		for dec.More() {
			if len(out.Items) == max {
				out.Cut = true
				return nil // the rest is not read: the body is closed unread
			}
			var d Document
			if err := dec.Decode(&d); err != nil {
				return fmt.Errorf("documents[%d]: %w", len(out.Items), err)
			}
			out.Items = append(out.Items, d)
		}
		if _, err := dec.Token(); err != nil { // the closing bracket
			return err
		}
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return err
	}
	return atEnd(dec)
}
