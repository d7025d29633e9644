package advisory

import "canopy/api"

// DocumentCount is how the advisories of a document stand: how many are
// open (their latest event leaves the package affected), how many
// resolved, and when the latest of their events was.
type DocumentCount struct {
	Open, Resolved int
	Latest         api.Time
}

// CountDocument counts a document's advisories by their latest event.
func CountDocument(d *api.Document) DocumentCount {
	var c DocumentCount
	for i := range d.Advisories {
		last := d.Advisories[i].Latest()
		if last == nil {
			continue
		}
		switch {
		case Open(last.Kind):
			c.Open++
		case Resolved(last.Kind):
			c.Resolved++
		}
		if last.Timestamp.After(c.Latest) {
			c.Latest = last.Timestamp
		}
	}
	return c
}
