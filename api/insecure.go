package api

import (
	"errors"
	"net"
	"strings"
)

// ErrInsecureHTTP is why New refuses a plain http:// URL whose host is not
// this machine: the token would be readable by anyone on the way (a proxy,
// the network). Loopback addresses (a local emulator, a tunnel) are fine.
var ErrInsecureHTTP = errors.New("the token would travel unencrypted over plain http to a host that is not this machine")

// isLoopback reports whether host (no port) is this machine: localhost (and
// names under it) or a loopback address.
func isLoopback(host string) bool {
	if h := strings.ToLower(strings.TrimSuffix(host, ".")); h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
