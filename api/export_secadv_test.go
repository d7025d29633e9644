package api

// The answers of the calls read otherwise than into one type, as the
// contract tests hold them to the table.
type (
	DocumentsAnswer = documentsAnswer
	ResolvedAnswer  = resolvedAnswer
)
