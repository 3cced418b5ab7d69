package tools

// What the external tests of the package (package tools_test) use of its internals.

var (
	StaleRepo     = staleRepo
	HoldRun       = holdRun
	Call          = call
	NavWorkspace  = navWorkspace
	TestWorkspace = testWorkspace
	FreshRepo     = freshRepo
	AppendLine    = appendLine
	SmallRepo     = smallRepo
)
