package advisory

import (
	"canopy/lazyregexp"
	"math"
	"strconv"
	"strings"
)

// versionPattern is a CVSS version as vectors name it ("3.1").
var versionPattern = lazyregexp.New(`^[0-9]{1,2}\.[0-9]{1,2}$`)

// Score is a severity score made readable: the base score of a CVSS vector
// (versions 2, 3.0 and 3.1 are computed; 4.0 is not) or the number itself.
type Score struct {
	Version string  // "2.0", "3.1", "4.0"; "" for a bare number
	Vector  string  // the vector as sent, "" for a bare number
	Base    float64 // the base score, when Known
	Known   bool
}

// ParseScore reads a severity's score: a number ("7.5"), a CVSS vector
// ("CVSS:3.1/AV:N/AC:L/…", or a version 2 vector without its prefix), or
// something else (Known false, Vector the text).
func ParseScore(score string) Score {
	s := strings.TrimSpace(score)
	if f, err := strconv.ParseFloat(s, 64); err == nil && f >= 0 && f <= 10 {
		return Score{Base: f, Known: true}
	}
	metrics, version := vectorMetrics(s)
	out := Score{Version: version, Vector: s}
	switch version {
	case "3.0", "3.1":
		out.Base, out.Known = base3(metrics)
	case "2.0":
		out.Base, out.Known = base2(metrics)
	}
	return out
}

// Rating is the qualitative severity of a base score (CVSS v3 and v4
// bands; version 2 has no "critical" or "none").
func (s Score) Rating() string {
	if !s.Known {
		return ""
	}
	b := s.Base
	if s.Version == "2.0" {
		switch {
		case b >= 7:
			return "high"
		case b >= 4:
			return "medium"
		}
		return "low"
	}
	switch {
	case b >= 9:
		return "critical"
	case b >= 7:
		return "high"
	case b >= 4:
		return "medium"
	case b > 0:
		return "low"
	}
	return "none"
}

// Short is the score for a narrow column: the base score ("7.5"), else the
// vector's version ("v4.0"), else "?" for a score that is neither.
func (s Score) Short() string {
	switch {
	case s.Known:
		return strconv.FormatFloat(s.Base, 'f', 1, 64)
	case s.Version != "":
		return "v" + s.Version
	case s.Vector != "":
		return "?"
	}
	return ""
}

// vectorMetrics splits a vector into its metrics and tells its version.
func vectorMetrics(v string) (map[string]string, string) {
	v = strings.Trim(v, "()")
	version := ""
	if rest, ok := strings.CutPrefix(v, "CVSS:"); ok {
		version, v, _ = strings.Cut(rest, "/")
		if !versionPattern.MatchString(version) {
			return nil, ""
		}
	}
	metrics := map[string]string{}
	for _, part := range strings.Split(v, "/") {
		k, val, ok := strings.Cut(part, ":")
		if !ok || k == "" {
			return nil, version
		}
		metrics[k] = val
	}
	if version == "" && metrics["Au"] != "" {
		version = "2.0"
	}
	return metrics, version
}

// pick looks a metric's value up in its weights.
func pick(metrics map[string]string, name string, weights map[string]float64) (float64, bool) {
	w, ok := weights[metrics[name]]
	return w, ok
}

// base3 is the CVSS v3.0/v3.1 base score.
func base3(m map[string]string) (float64, bool) {
	scopeChanged := m["S"] == "C"
	if m["S"] != "C" && m["S"] != "U" {
		return 0, false
	}
	pr := map[string]float64{"N": 0.85, "L": 0.62, "H": 0.27}
	if scopeChanged {
		pr = map[string]float64{"N": 0.85, "L": 0.68, "H": 0.5}
	}
	cia := map[string]float64{"H": 0.56, "L": 0.22, "N": 0}
	var w [7]float64
	ok := true
	for i, metric := range []struct {
		name    string
		weights map[string]float64
	}{
		{"AV", map[string]float64{"N": 0.85, "A": 0.62, "L": 0.55, "P": 0.2}},
		{"AC", map[string]float64{"L": 0.77, "H": 0.44}},
		{"PR", pr},
		{"UI", map[string]float64{"N": 0.85, "R": 0.62}},
		{"C", cia}, {"I", cia}, {"A", cia},
	} {
		var found bool
		w[i], found = pick(m, metric.name, metric.weights)
		ok = ok && found
	}
	if !ok {
		return 0, false
	}
	iss := 1 - (1-w[4])*(1-w[5])*(1-w[6])
	impact := 6.42 * iss
	if scopeChanged {
		impact = 7.52*(iss-0.029) - 3.25*math.Pow(iss-0.02, 15)
	}
	if impact <= 0 {
		return 0, true
	}
	exploitability := 8.22 * w[0] * w[1] * w[2] * w[3]
	if scopeChanged {
		return roundUp(math.Min(1.08*(impact+exploitability), 10)), true
	}
	return roundUp(math.Min(impact+exploitability, 10)), true
}

// roundUp is CVSS v3.1's Roundup: the smallest one-decimal number not
// below x, computed so that floating point noise does not push it up.
func roundUp(x float64) float64 {
	n := int64(math.Round(x * 100000))
	if n%10000 == 0 {
		return float64(n) / 100000
	}
	return float64(n/10000+1) / 10
}

// base2 is the CVSS v2 base score.
func base2(m map[string]string) (float64, bool) {
	cia := map[string]float64{"N": 0, "P": 0.275, "C": 0.660}
	var w [6]float64
	ok := true
	for i, metric := range []struct {
		name    string
		weights map[string]float64
	}{
		{"AV", map[string]float64{"L": 0.395, "A": 0.646, "N": 1.0}},
		{"AC", map[string]float64{"H": 0.35, "M": 0.61, "L": 0.71}},
		{"Au", map[string]float64{"M": 0.45, "S": 0.56, "N": 0.704}},
		{"C", cia}, {"I", cia}, {"A", cia},
	} {
		var found bool
		w[i], found = pick(m, metric.name, metric.weights)
		ok = ok && found
	}
	if !ok {
		return 0, false
	}
	impact := 10.41 * (1 - (1-w[3])*(1-w[4])*(1-w[5]))
	if impact == 0 {
		return 0, true
	}
	exploitability := 20 * w[0] * w[1] * w[2]
	score := (0.6*impact + 0.4*exploitability - 1.5) * 1.176
	return math.Round(score*10) / 10, true
}
