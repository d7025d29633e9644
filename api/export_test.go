package api

// MaxBody is the most of an answer the client reads (maxBody), for the
// tests that send one just past it.
const MaxBody = maxBody
