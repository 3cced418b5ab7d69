package extract

// The categories of a kind: the sets of kinds that behave alike for search and extraction.
// Each kind's categories are one row of kindCategories, so a set of kinds is written once,
// here, instead of as a list at each place that needs it.

// kindCategory is one category a kind may belong to, as a bit of a kind's flags.
type kindCategory uint8

// Kind categories.
const (
	// catDefinition: defines something a developer goes to (not an import or export,
	// which only name a definition made elsewhere).
	catDefinition kindCategory = 1 << iota
	// catBody: has a body of statements (a function's, a property's accessors), whose
	// source is worth indexing as code and inside which declarations are locals.
	catBody
	// catContainer: a body made of other symbols (a class's methods, a module's
	// functions), each of them a symbol of its own.
	catContainer
	// catCallable: called with arguments: functions and their kin, and delegates (a named
	// signature of what its values are called with).
	catCallable
	// catType: declares a type that values have.
	catType
)

// kindCategories are the categories of each kind.
var kindCategories = [...]kindCategory{
	KindUnknown: 0,
	Class:       catDefinition | catContainer | catType,
	Interface:   catDefinition | catContainer | catType,
	Function:    catDefinition | catBody | catCallable,
	Method:      catDefinition | catBody | catCallable,
	Variable:    catDefinition,
	Constant:    catDefinition,
	Property:    catDefinition | catBody,
	Enum:        catDefinition | catContainer | catType,
	EnumMember:  catDefinition,
	Module:      catDefinition | catContainer,
	Namespace:   catDefinition | catContainer,
	Type:        catDefinition | catType,
	Trait:       catDefinition | catContainer | catType,
	Struct:      catDefinition | catContainer | catType,
	Union:       catDefinition | catContainer | catType,
	Field:       catDefinition,
	Constructor: catDefinition | catBody | catCallable,
	Destructor:  catDefinition | catBody | catCallable,
	Operator:    catDefinition | catBody | catCallable,
	Import:      0,
	Export:      0,
	Event:       catDefinition,
	Delegate:    catDefinition | catCallable,
}

// is reports whether k belongs to category c; a kind outside the vocabulary belongs to
// none.
func (k Kind) is(c kindCategory) bool {
	return int(k) < len(kindCategories) && kindCategories[k]&c != 0
}

// IsDefinition reports whether k defines something a developer goes to: every kind but
// import, export and unknown.
func (k Kind) IsDefinition() bool { return k.is(catDefinition) }

// HasBody reports whether k has a body of statements: function, method, constructor,
// destructor, operator and property (its accessors). Declarations inside such a body are
// locals, and its source is indexed as code; a container's body is made of other symbols,
// a declaration's is the declaration itself.
func (k Kind) HasBody() bool { return k.is(catBody) }

// IsContainer reports whether k's body is made of other symbols: class, interface, struct,
// trait, enum, union, module and namespace.
func (k Kind) IsContainer() bool { return k.is(catContainer) }

// IsCallable reports whether k is called with arguments: function, method, constructor,
// destructor, operator and delegate.
func (k Kind) IsCallable() bool { return k.is(catCallable) }

// IsType reports whether k declares a type: class, interface, struct, trait, enum, union
// and type (an alias or a named type). A delegate is callable rather than a type here.
func (k Kind) IsType() bool { return k.is(catType) }

// kindsByName maps each kind's name to the kind, unknown excepted.
var kindsByName = func() map[string]Kind {
	m := make(map[string]Kind, len(kindNames))
	for k, name := range kindNames {
		if Kind(k) != KindUnknown {
			m[name] = Kind(k)
		}
	}
	return m
}()

// KindNamed returns the kind named name, and whether there is one: ParseKind without the
// error, for callers that hold kinds as names and treat an unknown one as no kind.
func KindNamed(name string) (Kind, bool) {
	k, ok := kindsByName[name]
	return k, ok
}
