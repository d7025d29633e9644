package api

// The answers of joining.go and self.go, for the contract's type test.
type (
	LookedUpGroup    = lookedUpGroup
	Eligibility      = eligibility
	LookedUpIdentity = lookedUpIdentity
)
