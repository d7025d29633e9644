package api

// Version is canopy's version; the client sends it in its user agent.
const Version = "0.1.0"

// UserAgent is the default User-Agent header of every request.
const UserAgent = "canopy/" + Version
