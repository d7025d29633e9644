package cli

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"

	"canopy/api/emulator"
)

// `canopy demo --as NAME` acts as one of the demo's persons instead of the
// admin: an owner, an editor, a viewer, or someone of no organization
// (erin, whose email's domain is globex.example's, may ask to join it),
// to see what their token sees, their own profile among it.

// asUsage is the --as flag's help.
func asUsage() string {
	return "act as a seeded person instead of the admin: " + strings.Join(emulator.PersonNames(), ", ") +
		" (alice owns acme.example, dave globex.example; erin and frank belong to none)"
}

// checkAs says what is wrong with --as: a name the demo has no person of.
func checkAs(name string) error {
	if name == "" || slices.Contains(emulator.PersonNames(), name) {
		return nil
	}
	return fmt.Errorf("--as %q: the demo's persons are %s", name, strings.Join(emulator.PersonNames(), ", "))
}

// personToken is the token of a seeded person, made at its first use: the
// emulator makes it once seeded (the UI waits for that before asking).
type personToken struct {
	srv  *emulator.Server
	name string
	once sync.Once
	tok  *oauth2.Token
	err  error
}

func (p *personToken) Token() (*oauth2.Token, error) {
	p.once.Do(func() {
		// A day: longer than a demo, short enough to be a token.
		exp := time.Now().Add(24 * time.Hour)
		s, err := p.srv.TokenOf(p.name, exp)
		p.tok, p.err = &oauth2.Token{AccessToken: s, TokenType: "Bearer", Expiry: exp}, err
	})
	return p.tok, p.err
}
