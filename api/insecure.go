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

// isLoopback reports whether host (no port) is this machine for certain:
// the name localhost or a loopback address, which no proxy is asked for and
// no name server answers. A name under localhost (foo.localhost) or with a
// root dot (localhost.) is neither: it went to the proxy and to DNS.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
