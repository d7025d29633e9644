package exit

import (
	"fmt"
	"io"

	"canopy/api"
	"canopy/safe"
)

// Sayf writes one line to w that may hold text canopy does not control: an
// API error, an organization name, chainctl's stderr, a config value, a
// panic value. The whole line goes through safe.String, as everything the
// UI prints does, so that text can neither run an escape sequence in the
// user's terminal nor forge a line of its own; and the user and password
// of any URL in it are hidden (an --api-url may carry them, and a parse
// error quotes the URL whole).
func Sayf(w io.Writer, format string, args ...any) {
	fmt.Fprintln(w, safe.String(api.RedactUserinfo(fmt.Sprintf(format, args...))))
}
