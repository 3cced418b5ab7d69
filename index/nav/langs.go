package nav

// langTable are the languages' rules the resolver dispatches to.
var langTable = NewLanguages(goHooks(), pyHooks(), jsHooks(), javaHooks(), csHooks(), rustHooks(), cHooks())
