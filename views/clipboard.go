package views

// What the copy keys put on the clipboard, as Copy's what says it; each
// kind is checked against the shape it must have.
const (
	CopyUID     = "uid"
	CopyDigest  = "digest"
	CopyPullRef = "pull reference"
	// CopyRefLines ends the what of marked tags copied as
	// "repo:tag@digest" lines ("3 repo:tag@digest lines").
	CopyRefLines = "repo:tag@digest lines"
)
