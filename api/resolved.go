package api

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"time"
)

// Resolved vulnerability reports: for an image (a repo and its tags), the
// vulnerabilities whose fixes reached it, day by day over a range of dates.
// The call is not paged: the answer is one report per day of the range, so
// canopy bounds the range (MaxResolvedDays) and the answer's size (the
// bounds of every answer).

const resolvedVulnsPath = "/advisory/v2/images/resolvedVulns"

// MaxResolvedDays is the longest range of dates canopy asks about at once.
const MaxResolvedDays = 366

// ResolvedVulnsReport is the vulnerabilities resolved in an image on one
// day.
type ResolvedVulnsReport struct {
	Date          Time           `json:"date,omitzero"`
	ResolvedVulns []ResolvedVuln `json:"resolvedVulns,omitempty"`
}

// ResolvedVuln is one vulnerability resolved: the advisory that says so
// (its CGA id), the ids the vulnerability goes by and its CVSS scores.
type ResolvedVuln struct {
	ID             string     `json:"id,omitempty"`
	Aliases        []string   `json:"aliases,omitempty"`
	CVSSSeverities []Severity `json:"cvssSeverities,omitempty"`
}

// resolvedAnswer is the answer of ListResolvedVulnsReports.
type resolvedAnswer struct {
	Reports []ResolvedVulnsReport `json:"resolvedVulnsReports,omitempty"`
}

// ImageRef names an image: a repo by its name, and some of its tags (none:
// the service's default, latest).
type ImageRef struct {
	Repo string
	Tags []string
}

// ResolvedQuery asks what was resolved in one image from Start to End
// (both days included).
type ResolvedQuery struct {
	Image      ImageRef
	Start, End time.Time
}

// ListResolvedVulnsReports reads the resolved vulnerability reports of one
// image over a range of at most MaxResolvedDays. One image per request:
// the query carries an image's repo and tags as two lists, which pair up
// unambiguously only for one.
func (c *Client) ListResolvedVulnsReports(ctx context.Context, q ResolvedQuery) ([]ResolvedVulnsReport, error) {
	switch {
	case q.Image.Repo == "":
		return nil, fmt.Errorf("resolved vulnerabilities: no repo named")
	case q.Start.IsZero() || q.End.IsZero() || q.End.Before(q.Start):
		return nil, fmt.Errorf("resolved vulnerabilities: the range %s to %s is not one", q.Start.Format(time.DateOnly), q.End.Format(time.DateOnly))
	case q.End.Sub(q.Start) > MaxResolvedDays*24*time.Hour:
		return nil, fmt.Errorf("resolved vulnerabilities: a range of at most %d days is asked at once", MaxResolvedDays)
	}
	v := url.Values{}
	v.Set("image_refs.repo", q.Image.Repo)
	for _, t := range q.Image.Tags {
		v.Add("image_refs.tags", t)
	}
	v.Set("start_time", TimeOf(q.Start).Time().Format(wireTimeLayout))
	v.Set("end_time", TimeOf(q.End).Time().Format(wireTimeLayout))
	var out resolvedAnswer
	if err := c.do(ctx, call{method: http.MethodGet, path: resolvedVulnsPath, query: v}, &out); err != nil {
		return nil, err
	}
	return out.Reports, nil
}
