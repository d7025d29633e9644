// Package api is a client for Platform API v2. It holds the wire types of every
// domain, the AIP-193 error model, paging, authentication and retries. It knows
// nothing of any user interface.
//
// Retries (RetryPolicy): a GET is retried on 429, 502, 503, 504 and broken
// connections. A DELETE is retried only when it certainly did not run: the
// server answered 429 or 503, or no connection was made. POST and PATCH are
// never retried. A change that may have reached the server without an answer
// saying how it ended (a broken connection or timeout after the request was
// sent, 502, 504, an unreadable 2xx) is not sent again and its error
// satisfies OutcomeUnknown: refresh to learn what happened.
package api

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"time"
)

// Time is a protojson timestamp: RFC 3339 in UTC with millisecond precision on
// the wire. The zero Time is omitted when tagged `omitzero`.
//
// It holds milliseconds since the zero time.Time (January 1, year 1, UTC):
// the wire has nothing finer, and 8 bytes instead of time.Time's 24 saves
// 32 bytes per loaded tag (two timestamps each), which is 32 MB at 10⁶ tags.
// The zero Time is the zero time.Time.
type Time struct{ ms int64 }

// msToUnix is the zero time.Time's offset from the Unix epoch, in milliseconds.
const msToUnix = 62135596800000

// TimeOf wraps t, truncated to the millisecond the wire can carry.
func TimeOf(t time.Time) Time {
	if t.IsZero() {
		return Time{}
	}
	return Time{t.UnixMilli() + msToUnix}
}

// Time is the timestamp as a time.Time in UTC (the zero time.Time when zero).
func (t Time) Time() time.Time {
	if t.ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(t.ms - msToUnix).UTC()
}

// Sub is t-u, as time.Time's Sub is (the largest or smallest Duration
// when it does not fit one), without making either a time.Time.
func (t Time) Sub(u Time) time.Duration {
	const limit = int64(math.MaxInt64 / int64(time.Millisecond))
	switch d := t.ms - u.ms; {
	case (t.ms >= u.ms) != (d >= 0): // the difference overflowed
		if t.ms >= u.ms {
			return math.MaxInt64
		}
		return math.MinInt64
	case d > limit:
		return math.MaxInt64
	case d < -limit:
		return math.MinInt64
	default:
		return time.Duration(d) * time.Millisecond
	}
}

// UTC is the timestamp as a time.Time in UTC, as Time is.
func (t Time) UTC() time.Time { return t.Time() }

// IsZero reports whether t is the zero Time (unset on the wire).
func (t Time) IsZero() bool { return t.ms == 0 }

// Before reports whether t is before u.
func (t Time) Before(u Time) bool { return t.ms < u.ms }

// After reports whether t is after u.
func (t Time) After(u Time) bool { return t.ms > u.ms }

// Equal reports whether t and u are the same millisecond.
func (t Time) Equal(u Time) bool { return t.ms == u.ms }

// Compare returns -1, 0 or +1 as t is before, equal to or after u.
func (t Time) Compare(u Time) int { return cmp.Compare(t.ms, u.ms) }

// wireTimeLayout always prints three fractional digits, as protojson does.
const wireTimeLayout = "2006-01-02T15:04:05.000Z07:00"

// MarshalJSON renders the time as protojson does.
func (t Time) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte(`null`), nil
	}
	return []byte(`"` + t.Time().Format(wireTimeLayout) + `"`), nil
}

// UnmarshalJSON accepts any RFC 3339 time, null or an empty string.
func (t *Time) UnmarshalJSON(b []byte) error {
	if bytes.Equal(b, []byte("null")) {
		*t = Time{}
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("timestamp: %w", err)
	}
	if s == "" {
		*t = Time{}
		return nil
	}
	parsed, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return fmt.Errorf("timestamp %q: %w", s, err)
	}
	*t = TimeOf(parsed)
	return nil
}

// Int64 is a 64-bit integer that protojson renders as a JSON string. It
// decodes from a string or a number.
type Int64 int64

// MarshalJSON renders the integer as a quoted decimal string.
func (n Int64) MarshalJSON() ([]byte, error) {
	return []byte(`"` + strconv.FormatInt(int64(n), 10) + `"`), nil
}

// UnmarshalJSON accepts "123", 123, "" and null.
func (n *Int64) UnmarshalJSON(b []byte) error {
	s := string(bytes.Trim(b, `"`))
	if s == "" || s == "null" {
		*n = 0
		return nil
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return fmt.Errorf("int64 %s: %w", b, err)
	}
	*n = Int64(v)
	return nil
}

// Group is a node of the organization hierarchy; a root group is an organization.
type Group struct {
	UID            string           `json:"uid,omitempty"`
	Name           string           `json:"name,omitempty"`
	Description    string           `json:"description,omitempty"`
	Kind           string           `json:"kind,omitempty"`
	Status         string           `json:"status,omitempty"`
	Verified       bool             `json:"verified,omitempty"`
	ResourceLimits map[string]int32 `json:"resourceLimits,omitempty"`
	CreateTime     Time             `json:"createTime,omitzero"`
	UpdateTime     Time             `json:"updateTime,omitzero"`
}

// Repo is an image repository in the registry.
type Repo struct {
	UID         string   `json:"uid,omitempty"`
	Name        string   `json:"name,omitempty"`
	Description string   `json:"description,omitempty"`
	CatalogTier string   `json:"catalogTier,omitempty"`
	Bundles     []string `json:"bundles,omitempty"`
	Aliases     []string `json:"aliases,omitempty"`
	ActiveTags  []string `json:"activeTags,omitempty"`
	// SyncConfig is set on a repo that copies another: its tier, bundles,
	// aliases and active tags come from the source and cannot be changed.
	// Its JSON key is snake_case on the wire (the service names it so).
	SyncConfig *SyncConfig `json:"sync_config,omitempty"`
	// CustomOverlay is the repo's image customization, kept as sent and
	// never read: a full replacement (FieldAll) sends it back instead of
	// clearing it.
	CustomOverlay json.RawMessage `json:"customOverlay,omitempty"`
	CreateTime    Time            `json:"createTime,omitzero"`
	UpdateTime    Time            `json:"updateTime,omitzero"`
}

// SyncConfig says where a repo's images are synced from, and where to.
type SyncConfig struct {
	Source         string `json:"source,omitempty"` // the source repo's uid
	UniqueTags     bool   `json:"uniqueTags,omitempty"`
	ExpirationTime Time   `json:"expirationTime,omitzero"`
	Google         string `json:"google,omitempty"`
	Amazon         string `json:"amazon,omitempty"`
	Azure          string `json:"azure,omitempty"`
	GracePeriod    bool   `json:"gracePeriod,omitempty"`
}

// RepoReadme is the Markdown readme of a repo.
type RepoReadme struct {
	UID     string `json:"uid,omitempty"`
	Content string `json:"content,omitempty"`
}

// Tag names an image digest inside a repo. A tag has no creation time:
// UpdateTime (when it last moved) is its only time.
type Tag struct {
	UID        string   `json:"uid,omitempty"`
	Name       string   `json:"name,omitempty"`
	Digest     string   `json:"digest,omitempty"`
	Deprecated bool     `json:"deprecated,omitempty"`
	Bundles    []string `json:"bundles,omitempty"`
	UpdateTime Time     `json:"updateTime,omitzero"`
}

// Architectures lists the platforms an image digest is built for.
type Architectures struct {
	Architectures []string `json:"architectures,omitempty"`
}

// ImageSize is the size in bytes of one architecture of an image digest.
type ImageSize struct {
	Size         Int64  `json:"size"`
	Architecture string `json:"architecture,omitempty"`
}

// ClaimMatch says which OIDC tokens may assume an identity. Issuer,
// subject and audience are each matched either exactly or by a regular
// expression (the service takes one or the other, never both); Claims and
// ClaimPatterns match further claims by value or by pattern.
type ClaimMatch struct {
	Issuer          string            `json:"issuer,omitempty"`
	IssuerPattern   string            `json:"issuerPattern,omitempty"`
	Subject         string            `json:"subject,omitempty"`
	SubjectPattern  string            `json:"subjectPattern,omitempty"`
	Audience        string            `json:"audience,omitempty"`
	AudiencePattern string            `json:"audiencePattern,omitempty"`
	Claims          map[string]string `json:"claims,omitempty"`
	ClaimPatterns   map[string]string `json:"claimPatterns,omitempty"`
}

// StaticKeys lets tokens of an issuer with no online keys assume an
// identity: the keys are registered with it, and expire.
type StaticKeys struct {
	Issuer         string   `json:"issuer,omitempty"`
	Subject        string   `json:"subject,omitempty"`
	IssuerKeys     string   `json:"issuerKeys,omitempty"` // JWKS
	ExpirationTime Time     `json:"expirationTime,omitzero"`
	Audiences      []string `json:"audiences,omitempty"`
}

// AWSIdentity lets AWS IAM users and roles of an account assume an
// identity; the ARN and the user id are each matched exactly or by a
// regular expression.
type AWSIdentity struct {
	AWSAccount    string `json:"awsAccount,omitempty"`
	ARN           string `json:"arn,omitempty"`
	ARNPattern    string `json:"arnPattern,omitempty"`
	UserID        string `json:"userId,omitempty"`
	UserIDPattern string `json:"userIdPattern,omitempty"`
}

// Identity is a principal that roles are bound to. At most one of
// ClaimMatch, StaticKeys, AWSIdentity and ServicePrincipal is set: how the
// identity is assumed. A user who signed in has none of them.
type Identity struct {
	UID              string       `json:"uid,omitempty"`
	Name             string       `json:"name,omitempty"`
	Description      string       `json:"description,omitempty"`
	Email            string       `json:"email,omitempty"`
	EmailUnverified  string       `json:"emailUnverified,omitempty"`
	Company          string       `json:"company,omitempty"`
	ClaimMatch       *ClaimMatch  `json:"claimMatch,omitempty"`
	StaticKeys       *StaticKeys  `json:"staticKeys,omitempty"`
	AWSIdentity      *AWSIdentity `json:"awsIdentity,omitempty"`
	ServicePrincipal string       `json:"servicePrincipal,omitempty"` // SERVICE_PRINCIPAL_…
	LastSeenTime     Time         `json:"lastSeenTime,omitzero"`
	CreateTime       Time         `json:"createTime,omitzero"`
	UpdateTime       Time         `json:"updateTime,omitzero"`
}

// AssumedBy names how an identity is assumed, by the one relationship
// the service gives it: "claim match", "static keys", "aws", "service";
// "" for none.
func (id *Identity) AssumedBy() string {
	switch {
	case id.ClaimMatch != nil:
		return "claim match"
	case id.StaticKeys != nil:
		return "static keys"
	case id.AWSIdentity != nil:
		return "aws"
	case id.ServicePrincipal != "":
		return "service"
	}
	return ""
}

// Role is a named set of capabilities. Built-in roles have a flat uid (no
// "/"); custom roles live in a group.
type Role struct {
	UID          string   `json:"uid,omitempty"`
	Name         string   `json:"name,omitempty"`
	Description  string   `json:"description,omitempty"`
	Capabilities []string `json:"capabilities,omitempty"`
	CreateTime   Time     `json:"createTime,omitzero"`
	UpdateTime   Time     `json:"updateTime,omitzero"`
}

// BuiltIn reports whether r is one of the service's own roles (a flat
// uid), not a role of some group.
func (r *Role) BuiltIn() bool { return r.UID != "" && ParentUID(r.UID) == "" }

// BindingIdentity is the identity part of a hydrated RoleBinding.
type BindingIdentity struct {
	UID         string `json:"uid,omitempty"`
	Name        string `json:"name,omitempty"`
	Description string `json:"description,omitempty"`
	Subject     string `json:"subject,omitempty"`
	Issuer      string `json:"issuer,omitempty"`
	Email       string `json:"email,omitempty"`
}

// Ref is the uid, name and description of a group or role inside a hydrated RoleBinding.
type Ref struct {
	UID         string `json:"uid,omitempty"`
	Name        string `json:"name,omitempty"`
	Description string `json:"description,omitempty"`
}

// RoleBinding grants a role to an identity on a group, hydrated so that no
// follow-up lookups are needed. It has a creation time only.
type RoleBinding struct {
	UID        string           `json:"uid,omitempty"`
	Identity   *BindingIdentity `json:"identity,omitempty"`
	Group      *Ref             `json:"group,omitempty"`
	Role       *Ref             `json:"role,omitempty"`
	CreateTime Time             `json:"createTime,omitzero"`
}

// CreateRoleBinding is the body of a role binding create request.
type CreateRoleBinding struct {
	IdentityUID string `json:"identityUid"`
	RoleUID     string `json:"roleUid"`
}

// Severity schemes of an advisory's scores.
const (
	SeverityCVSSv2 = "TYPE_CVSS_V2"
	SeverityCVSSv3 = "TYPE_CVSS_V3"
	SeverityCVSSv4 = "TYPE_CVSS_V4"
)

// Severity scores an advisory under one scheme: Score is a CVSS vector
// ("CVSS:3.1/AV:N/…") or a number ("7.5").
type Severity struct {
	Type  string `json:"type,omitempty"`
	Score string `json:"score,omitempty"`
}

// Advisory is an entry of the vulnerability advisory feed.
type Advisory struct {
	UID                  string          `json:"uid,omitempty"`
	AdvisoryID           string          `json:"advisoryId,omitempty"`
	LegacyAdvisoryID     string          `json:"legacyAdvisoryId,omitempty"`
	Author               string          `json:"author,omitempty"`
	ArtifactName         string          `json:"artifactName,omitempty"`
	ArtifactType         string          `json:"artifactType,omitempty"`
	ArtifactArchitecture string          `json:"artifactArchitecture,omitempty"`
	ComponentName        string          `json:"componentName,omitempty"`
	ComponentType        string          `json:"componentType,omitempty"`
	ComponentLocation    string          `json:"componentLocation,omitempty"`
	Aliases              []string        `json:"aliases,omitempty"`
	Severities           []Severity      `json:"severities,omitempty"`
	Events               []AdvisoryEvent `json:"events,omitempty"`
	CreateTime           Time            `json:"createTime,omitzero"`
	UpdateTime           Time            `json:"updateTime,omitzero"`
	DeleteTime           Time            `json:"deleteTime,omitzero"`
}

// Subscription delivers events of a group to an https sink. It has no
// other fields: no name, no times.
type Subscription struct {
	UID  string `json:"uid,omitempty"`
	Sink string `json:"sink,omitempty"`
}

// Ecosystems of library artifacts: the only two the service knows.
const (
	EcosystemJava   = "ECOSYSTEM_JAVA"
	EcosystemPython = "ECOSYSTEM_PYTHON"
)

// Ecosystems lists every ecosystem, in the order canopy shows them.
func Ecosystems() []string { return []string{EcosystemJava, EcosystemPython} }

// Artifact is a library package rebuilt from source. Its UID names its
// ecosystem and package and holds a slash ("pypi/requests").
type Artifact struct {
	UID           string `json:"uid,omitempty"`
	Name          string `json:"name,omitempty"`
	Description   string `json:"description,omitempty"`
	Ecosystem     string `json:"ecosystem,omitempty"`
	LatestVersion string `json:"latestVersion,omitempty"`
	VersionCount  int32  `json:"versionCount,omitempty"`
	CreateTime    Time   `json:"createTime,omitzero"`
	UpdateTime    Time   `json:"updateTime,omitzero"`
}

// ArtifactVersion is one released version of an artifact.
type ArtifactVersion struct {
	UID         string `json:"uid,omitempty"`
	Name        string `json:"name,omitempty"`
	Version     string `json:"version,omitempty"`
	Description string `json:"description,omitempty"`
	SizeBytes   Int64  `json:"sizeBytes,omitempty"`
	CreateTime  Time   `json:"createTime,omitzero"`
	UpdateTime  Time   `json:"updateTime,omitzero"`
}

// EcosystemCount is the number of artifacts of one ecosystem.
type EcosystemCount struct {
	Ecosystem  string `json:"ecosystem,omitempty"`
	TotalCount Int64  `json:"totalCount"`
}

// ArtifactCounts is the answer of the artifact count endpoint.
type ArtifactCounts struct {
	Counts []EcosystemCount `json:"counts,omitempty"`
}

// PingResponse is the answer of the ping endpoint.
type PingResponse struct {
	Response string `json:"response,omitempty"`
}
