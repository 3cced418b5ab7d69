#!/usr/bin/env node
// The TypeScript and JavaScript navigation oracle of bench/nav.sh: TypeScript's own language
// service (findReferences) over every .ts/.tsx/.js/.jsx/.mjs/.cjs/.mts/.cts file of a project
// (allowJs, checkJs off; .d.ts files are in the program but never sampled).
//
//   node oracle_ts.js ROOT [--n 150] [--seed quarry-nav] [--sample lib/,fastify.js]
//
// Samples definitions deterministically and prints one JSON line per definition:
// {"name","path","line","kind","callable","uses":[{"path","line","call"}]}, paths relative to
// ROOT, lines 1-based, uses without the definition's own line, one per line, none in
// node_modules. See README.md beside this file for what is sampled and why.
'use strict'

const fs = require('node:fs')
const path = require('node:path')
const crypto = require('node:crypto')
let ts
try {
  ts = require('typescript')
} catch (e) {
  console.error('oracle_ts: typescript is not installed: run npm ci --prefix ' + __dirname)
  process.exit(2)
}

function usage (msg) {
  if (msg) console.error('oracle_ts: ' + msg)
  console.error('usage: node oracle_ts.js ROOT [--n N] [--seed S] [--sample PREFIX,PREFIX...]')
  process.exit(2)
}

const args = process.argv.slice(2)
let root = null
let n = 150
let seed = 'quarry-nav'
let samplePrefixes = []
for (let i = 0; i < args.length; i++) {
  const a = args[i]
  const val = () => { if (i + 1 >= args.length) usage(a + ' needs a value'); return args[++i] }
  if (a === '--n') {
    n = Number(val())
    if (!Number.isInteger(n) || n < 1) usage('--n must be a positive integer')
  } else if (a === '--seed') seed = val()
  else if (a === '--sample') samplePrefixes = val().split(',').filter(Boolean)
  else if (a.startsWith('-')) usage('unknown flag ' + a)
  else if (root === null) root = a
  else usage('one ROOT only')
}
if (root === null) usage('ROOT is missing')
root = path.resolve(root)
if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) usage(root + ' is not a directory')

const SKIP_DIRS = new Set(['node_modules', 'vendor', '.git', '.quarry', 'bower_components'])
const EXT = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/

function walk (dir, out) {
  for (const ent of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name < b.name ? -1 : 1)) {
    const p = path.join(dir, ent.name)
    if (ent.isDirectory()) {
      if (!SKIP_DIRS.has(ent.name)) walk(p, out)
    } else if (ent.isFile() && EXT.test(ent.name) && !/\.min\.js$/.test(ent.name)) {
      out.push(p)
    }
  }
  return out
}

const files = walk(root, [])
const rel = (f) => path.relative(root, f).split(path.sep).join('/')
const isDts = (f) => /\.d\.(ts|mts|cts)$/.test(f) || /\.d\.[^.]+\.ts$/.test(f)

const options = {
  allowJs: true,
  checkJs: false,
  noEmit: true,
  target: ts.ScriptTarget.ESNext,
  module: ts.ModuleKind.Preserve,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  resolveJsonModule: true,
  esModuleInterop: true,
  allowSyntheticDefaultImports: true,
  experimentalDecorators: true,
  jsx: ts.JsxEmit.Preserve,
  types: [],
  skipLibCheck: true,
  maxNodeModuleJsDepth: 0
}

const versions = new Map(files.map(f => [f, '1']))
const host = {
  getScriptFileNames: () => files,
  getScriptVersion: (f) => versions.get(f) || '1',
  getScriptSnapshot: (f) => {
    if (!fs.existsSync(f)) return undefined
    return ts.ScriptSnapshot.fromString(fs.readFileSync(f, 'utf8'))
  },
  getCurrentDirectory: () => root,
  getCompilationSettings: () => options,
  getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
  fileExists: ts.sys.fileExists,
  readFile: ts.sys.readFile,
  readDirectory: ts.sys.readDirectory,
  directoryExists: ts.sys.directoryExists,
  getDirectories: ts.sys.getDirectories
}
const service = ts.createLanguageService(host, ts.createDocumentRegistry())
const program = service.getProgram()
const checker = program.getTypeChecker()

// --- sampling: the declarations of the files in the sample's scope ---

function inSample (relPath) {
  if (isDts(relPath)) return false
  if (relPath.split('/').some(p => SKIP_DIRS.has(p))) return false
  if (samplePrefixes.length === 0) return true
  return samplePrefixes.some(p => relPath === p || relPath.startsWith(p.endsWith('/') ? p : p + '/'))
}

function insideFunctionBody (node) {
  for (let p = node.parent; p; p = p.parent) {
    if (ts.isFunctionLike(p)) return true
    if (ts.isClassStaticBlockDeclaration(p)) return true
  }
  return false
}

function isRequireInit (init) {
  // require('x'), require('x').y, require('x')(...), await import('x')
  let e = init
  while (e && (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e) || ts.isCallExpression(e) ||
    ts.isAwaitExpression(e) || ts.isParenthesizedExpression(e))) {
    if (ts.isCallExpression(e) && ((ts.isIdentifier(e.expression) && e.expression.text === 'require') ||
      e.expression.kind === ts.SyntaxKind.ImportKeyword)) return true
    e = e.expression
  }
  return false
}

const isModuleExports = (e) => ts.isPropertyAccessExpression(e) && ts.isIdentifier(e.expression) &&
  e.expression.text === 'module' && e.name.text === 'exports'

// declarativeLiteral: an object literal that declares: through nested object literals, the
// initializer of a variable or property, the right side of an assignment, an export, or an
// argument of Object.defineProperty/defineProperties/assign/create (not an options bag
// passed to some call, nor a value built inside a function)
function declarativeLiteral (lit) {
  if (insideFunctionBody(lit)) return false
  let e = lit
  for (;;) {
    const p = e.parent
    if (!p) return false
    if (ts.isParenthesizedExpression(p) || ts.isAsExpression(p) || ts.isSatisfiesExpression(p)) { e = p; continue }
    if (ts.isPropertyAssignment(p) && p.initializer === e && ts.isObjectLiteralExpression(p.parent)) { e = p.parent; continue }
    if (ts.isVariableDeclaration(p) || ts.isPropertyDeclaration(p) || ts.isExportAssignment(p)) return true
    if (ts.isBinaryExpression(p) && p.operatorToken.kind === ts.SyntaxKind.EqualsToken && p.right === e) return true
    if (ts.isCallExpression(p) && ts.isPropertyAccessExpression(p.expression) && ts.isIdentifier(p.expression.expression) &&
      p.expression.expression.text === 'Object' && /^(defineProperty|defineProperties|assign|create)$/.test(p.expression.name.text)) return true
    return false
  }
}

// libMember: an object literal member whose contextual type declares it in a default library
// (a property descriptor's get, set, value, enumerable): TypeScript's references are then
// every descriptor's
function libMember (node) {
  if (!node.name || !ts.isIdentifier(node.name)) return false
  const ctype = checker.getContextualType(node.parent)
  if (!ctype) return false
  const types = ctype.isUnion() ? ctype.types : [ctype]
  for (const t of types) {
    const prop = t.getProperty && t.getProperty(node.name.text)
    if (prop && prop.declarations && prop.declarations.some(d => program.isSourceFileDefaultLibrary(d.getSourceFile()))) return true
  }
  return false
}

const isFunctionInit = (init) => !!init && (ts.isFunctionExpression(init) || ts.isArrowFunction(init) ||
  (ts.isParenthesizedExpression(init) && isFunctionInit(init.expression)))

// candidate returns [nameNode, kind, callable] for a declaration the oracle samples, else null.
function candidate (node) {
  const named = (kind, callable) => (node.name && ts.isIdentifier(node.name)) ? [node.name, kind, callable] : null
  switch (node.kind) {
    case ts.SyntaxKind.FunctionDeclaration: return named('function', true)
    case ts.SyntaxKind.ClassDeclaration: return named('class', false)
    case ts.SyntaxKind.InterfaceDeclaration: return named('interface', false)
    case ts.SyntaxKind.TypeAliasDeclaration: return named('type', false)
    case ts.SyntaxKind.EnumDeclaration: return named('enum', false)
    case ts.SyntaxKind.EnumMember: return named('enum_member', false)
    case ts.SyntaxKind.MethodDeclaration:
    case ts.SyntaxKind.MethodSignature:
      if (ts.isObjectLiteralExpression(node.parent) && (!declarativeLiteral(node.parent) || libMember(node))) return null
      return named('method', true)
    case ts.SyntaxKind.GetAccessor:
    case ts.SyntaxKind.SetAccessor:
      if (ts.isObjectLiteralExpression(node.parent) && (!declarativeLiteral(node.parent) || libMember(node))) return null
      return named('accessor', false)
    case ts.SyntaxKind.PropertyDeclaration:
    case ts.SyntaxKind.PropertySignature:
      return named('property', isFunctionInit(node.initializer))
    case ts.SyntaxKind.PropertyAssignment:
      if (!declarativeLiteral(node.parent) || libMember(node)) return null
      return named('property', isFunctionInit(node.initializer))
    case ts.SyntaxKind.VariableDeclaration:
      // module-level (or namespace-level) variables; a function's locals are not definitions
      // a code navigator indexes, and a require/import binding is an alias, not a definition
      if (insideFunctionBody(node)) return null
      if (isRequireInit(node.initializer)) return null
      return named(isFunctionInit(node.initializer) ? 'function' : 'variable', isFunctionInit(node.initializer))
    case ts.SyntaxKind.BinaryExpression: {
      // JS assignment declarations: X.prototype.y = ..., X.y = ..., exports.y = ...,
      // module.exports.y = ..., this.y = ... (TypeScript binds each as a property)
      if (node.operatorToken.kind !== ts.SyntaxKind.EqualsToken) return null
      const left = node.left
      if (!ts.isPropertyAccessExpression(left) || !ts.isIdentifier(left.name)) return null
      if (!ts.isExpressionStatement(node.parent)) return null
      const sf = node.getSourceFile()
      if (!(sf.flags & ts.NodeFlags.JavaScriptFile)) return null
      if (isModuleExports(left)) return null // module.exports = ...: the module, not a definition
      // this.y = ... anywhere; X.prototype.y, X.y, exports.y, module.exports.y = ... at the top level
      if (left.expression.kind !== ts.SyntaxKind.ThisKeyword && !ts.isSourceFile(node.parent.parent)) return null
      const fn = isFunctionInit(node.right)
      return [left.name, fn ? 'method' : 'property', fn]
    }
  }
  return null
}

const cands = [] // {file, rel, nameNode, kind, callable, symbol}
const seenSymbols = new Set()
for (const f of files) {
  const r = rel(f)
  if (!inSample(r)) continue
  const sf = program.getSourceFile(f)
  if (!sf) continue
  const visit = (node) => {
    const c = candidate(node)
    if (c) {
      const [nameNode, kind, callable] = c
      const name = nameNode.text
      if (name.length >= 3) {
        const sym = checker.getSymbolAtLocation(nameNode)
        if (sym && !seenSymbols.has(sym)) {
          // this.x = ... and X.prototype.y = ... may be written many times: the first
          // declaration in the program's order is the definition, the others are uses
          const decl0 = sym.declarations && sym.declarations[0]
          const first = !decl0 || decl0 === node || decl0 === nameNode || decl0 === nameNode.parent || decl0 === node.left
          if (first) {
            seenSymbols.add(sym)
            cands.push({ file: f, rel: r, sf, nameNode, name, kind, callable })
          }
        }
      }
    }
    ts.forEachChild(node, visit)
  }
  visit(sf)
}

const h = (s) => crypto.createHash('sha1').update(seed + '\0' + s).digest('hex')
const byFile = new Map()
for (const c of cands) {
  c.line = c.sf.getLineAndCharacterOfPosition(c.nameNode.getStart(c.sf)).line + 1
  c.key = h(c.rel + ':' + c.name + ':' + c.line)
  if (!byFile.has(c.rel)) byFile.set(c.rel, [])
  byFile.get(c.rel).push(c)
}
const order = [...byFile.keys()].sort((a, b) => h(a) < h(b) ? -1 : h(a) > h(b) ? 1 : 0)
for (const k of order) byFile.get(k).sort((a, b) => a.key < b.key ? -1 : a.key > b.key ? 1 : 0)
const sample = []
for (let round = 0; sample.length < n; round++) {
  let took = false
  for (const k of order) {
    const list = byFile.get(k)
    if (round < list.length && sample.length < n) { sample.push(list[round]); took = true }
  }
  if (!took) break
}

// --- uses ---

function tokenAt (sf, pos) {
  let found = null
  const visit = (node) => {
    if (found) return
    if (pos < node.pos || pos >= node.end) return
    if (node.getStart(sf) === pos && (ts.isIdentifier(node) || ts.isPrivateIdentifier(node) ||
      ts.isStringLiteralLike(node) || ts.isNumericLiteral(node))) { found = node; return }
    ts.forEachChild(node, visit)
  }
  visit(sf)
  return found
}

function isCall (node) {
  if (!node) return false
  let e = node
  if (e.parent && (ts.isPropertyAccessExpression(e.parent) || ts.isPropertyAccessChain(e.parent)) && e.parent.name === e) e = e.parent
  else if (e.parent && ts.isElementAccessExpression(e.parent) && e.parent.argumentExpression === e) e = e.parent
  while (e.parent && (ts.isParenthesizedExpression(e.parent) || ts.isNonNullExpression(e.parent) ||
    ts.isExpressionWithTypeArguments(e.parent))) e = e.parent
  const p = e.parent
  if (!p) return false
  if ((ts.isCallExpression(p) || ts.isNewExpression(p)) && p.expression === e) return true
  if (ts.isTaggedTemplateExpression(p) && p.tag === e) return true
  return false
}

const sfCache = new Map()
function sourceFile (fileName) {
  if (!sfCache.has(fileName)) sfCache.set(fileName, program.getSourceFile(fileName))
  return sfCache.get(fileName)
}

// aliasTo: whether the alias a group of references is defined by (an import, a re-export,
// a require binding) stands for one of the targets: TypeScript also gives alias groups of
// what is not the definition (module.exports = f(a) makes a require of it an alias of a)
function aliasTo (d, targets) {
  const sf = sourceFile(d.fileName)
  const node = sf && tokenAt(sf, d.textSpan.start)
  let sym = node && checker.getSymbolAtLocation(node)
  if (!sym) return false
  try {
    if (sym.flags & ts.SymbolFlags.Alias) sym = checker.getAliasedSymbol(sym)
  } catch (e) {
    return false
  }
  return !!sym && (sym.declarations || []).some(decl => targets.has(decl))
}

// otherDeclaration: another declaration of the definition's entity (an overload, a merged
// declaration, the setter of a getter), not a use
function otherDeclaration (node) {
  const p = node && node.parent
  if (!p || p.name !== node) return false
  return ts.isFunctionDeclaration(p) || ts.isMethodDeclaration(p) || ts.isMethodSignature(p) ||
    ts.isClassDeclaration(p) || ts.isInterfaceDeclaration(p) || ts.isModuleDeclaration(p) || ts.isEnumDeclaration(p) ||
    ts.isConstructorDeclaration(p) || ts.isGetAccessorDeclaration(p) || ts.isSetAccessorDeclaration(p)
}

const exportsTarget = (e) => isModuleExports(e) || (ts.isIdentifier(e) && e.text === 'exports') ||
  (ts.isPropertyAccessExpression(e) && (isModuleExports(e.expression) || (ts.isIdentifier(e.expression) && e.expression.text === 'exports')))

// requireSites: the destructuring requires of the program, const { a, b: c } = require('./m'),
// by the required file and the property: the bindings TypeScript does not tie to what
// module.exports = { a } or exports.a = a exports
let requireSitesMap = null
const namespaceSitesMap = new Map() // required file -> [file, position of m in const m = require('./f')]
const requirePropMap = new Map() // required file \0 X -> [file, position of X in require('./f').X]
const requireTarget = (call) => {
  const msym = checker.getSymbolAtLocation(call.arguments[0])
  const decl = msym && msym.declarations && msym.declarations[0]
  return decl && decl.getSourceFile().fileName
}
const isPlainRequire = (e) => !!e && ts.isCallExpression(e) && ts.isIdentifier(e.expression) &&
  e.expression.text === 'require' && e.arguments.length === 1 && ts.isStringLiteralLike(e.arguments[0])
function requireSites (fileName, prop) {
  if (requireSitesMap === null) {
    requireSitesMap = new Map()
    for (const sf of program.getSourceFiles()) {
      if (program.isSourceFileDefaultLibrary(sf) || sf.fileName.includes('/node_modules/')) continue
      const visit = (node) => {
        if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && isPlainRequire(node.initializer)) {
          const target = requireTarget(node.initializer)
          if (target) {
            if (!namespaceSitesMap.has(target)) namespaceSitesMap.set(target, [])
            namespaceSitesMap.get(target).push([sf.fileName, node.name.getStart(sf)])
          }
        }
        if (ts.isPropertyAccessExpression(node) && isPlainRequire(node.expression) && ts.isIdentifier(node.name)) {
          // require('./f').X: a use of X; const v = require('./f').X: an alias v of it
          const target = requireTarget(node.expression)
          if (target) {
            const key = target + '\0' + node.name.text
            if (ts.isVariableDeclaration(node.parent) && node.parent.initializer === node && ts.isIdentifier(node.parent.name)) {
              if (!requireSitesMap.has(key)) requireSitesMap.set(key, [])
              requireSitesMap.get(key).push([sf.fileName, node.parent.name.getStart(sf)])
            }
            if (!requirePropMap.has(key)) requirePropMap.set(key, [])
            requirePropMap.get(key).push([sf.fileName, node.name.getStart(sf)])
          }
        }
        if (ts.isVariableDeclaration(node) && ts.isObjectBindingPattern(node.name) && isPlainRequire(node.initializer)) {
          const target = requireTarget(node.initializer)
          if (target) {
            for (const el of node.name.elements) {
              const pn = el.propertyName || el.name
              if (!ts.isIdentifier(pn) || !ts.isIdentifier(el.name)) continue
              const key = target + '\0' + pn.text
              if (!requireSitesMap.has(key)) requireSitesMap.set(key, [])
              requireSitesMap.get(key).push([sf.fileName, el.name.getStart(sf)])
            }
          }
        }
        ts.forEachChild(node, visit)
      }
      visit(sf)
    }
  }
  return requireSitesMap.get(fileName + '\0' + prop) || []
}

// namespaceUses: m.prop where const m = require(fileName)
const nsRefs = new Map()
function namespaceUses (fileName, prop) {
  requireSites(fileName, prop)
  const out = [...(requirePropMap.get(fileName + '\0' + prop) || [])]
  for (const [bfile, bpos] of namespaceSitesMap.get(fileName) || []) {
    const key = bfile + ':' + bpos
    if (!nsRefs.has(key)) {
      const refs = []
      for (const group of service.findReferences(bfile, bpos) || []) {
        for (const ref of group.references) {
          const node = tokenAt(sourceFile(ref.fileName), ref.textSpan.start)
          if (node && node.parent && ts.isPropertyAccessExpression(node.parent) && node.parent.expression === node) {
            refs.push([ref.fileName, node.parent.name])
          }
        }
      }
      nsRefs.set(key, refs)
    }
    for (const [f, name] of nsRefs.get(key)) {
      if (ts.isIdentifier(name) && name.text === prop) out.push([f, name.getStart(sourceFile(f))])
    }
  }
  return out
}

// exportedAs: the property name under which node (a definition's name or a reference) is a
// CommonJS export: module.exports = { a }, module.exports = { b: a }, module.exports.b = a,
// exports.b = a, module.exports.b = ... and exports.b = ... (as the definition); else null
function exportedAs (node) {
  const p = node && node.parent
  if (!p) return null
  const lit = p.parent
  if ((ts.isShorthandPropertyAssignment(p) || (ts.isPropertyAssignment(p) && (p.initializer === node || p.name === node)) ||
    (ts.isMethodDeclaration(p) && p.name === node)) &&
    lit && ts.isObjectLiteralExpression(lit) && ts.isBinaryExpression(lit.parent) && isModuleExports(lit.parent.left) &&
    p.name && ts.isIdentifier(p.name)) {
    return p.name
  }
  if (ts.isBinaryExpression(p) && p.right === node && p.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
    ts.isPropertyAccessExpression(p.left) && exportsTarget(p.left) && !isModuleExports(p.left)) return p.left.name
  if (ts.isPropertyAccessExpression(p) && p.name === node && exportsTarget(p) && !isModuleExports(p) &&
    ts.isBinaryExpression(p.parent) && p.parent.left === p) return node
  return null
}

// aliasesOf: where CommonJS aliases of the referenced entity are, for TypeScript's references
// stop there while it follows ES imports itself. follow: declarations whose references are
// the entity's (const { a } = require('./m'): its local a; the destructuring requires of an
// exported property); direct: uses (m.a where const m = require('./m')).
function aliasesOf (node) {
  const none = { follow: [], direct: [] }
  const p = node && node.parent
  if (!p) return none
  const sf = node.getSourceFile()
  if (ts.isBindingElement(p) && ts.isObjectBindingPattern(p.parent)) {
    let decl = p.parent.parent
    while (decl && ts.isBindingElement(decl)) decl = decl.parent.parent
    if (decl && ts.isVariableDeclaration(decl) && isRequireInit(decl.initializer) && ts.isIdentifier(p.name)) {
      return { follow: [[sf.fileName, p.name.getStart(sf)]], direct: [] }
    }
    return none
  }
  const exp = exportedAs(node)
  if (!exp) {
    // X.y = f at the top level (X a function or object: SchemaController.build = build): the
    // property y holds the entity
    if (ts.isBinaryExpression(p) && p.right === node && p.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isPropertyAccessExpression(p.left) && ts.isIdentifier(p.left.name) && p.left.expression.kind !== ts.SyntaxKind.ThisKeyword && !exportsTarget(p.left) &&
      ts.isExpressionStatement(p.parent) && ts.isSourceFile(p.parent.parent)) {
      return { follow: [[sf.fileName, p.left.name.getStart(sf)]], direct: [] }
    }
    return none
  }
  const follow = requireSites(sf.fileName, exp.text)
  if (exp !== node) follow.push([sf.fileName, exp.getStart(sf)])
  return { follow, direct: namespaceUses(sf.fileName, exp.text) }
}

for (const c of sample) {
  const start = c.nameNode.getStart(c.sf)
  const uses = new Map()
  const visited = new Set([c.file + ':' + start])
  const work = [[c.file, start, 0]]
  const targets = new Set() // the declarations of the definition and of the CommonJS aliases followed
  const addTargets = (fileName, p) => {
    const sf = sourceFile(fileName)
    const sym = sf && checker.getSymbolAtLocation(tokenAt(sf, p))
    for (const decl of (sym && sym.declarations) || []) targets.add(decl)
  }
  addTargets(c.file, start)
  const addUse = (fileName, pos) => {
    const fr = rel(fileName)
    const sf = sourceFile(fileName)
    if (!sf || fr.startsWith('..') || fr.split('/').includes('node_modules')) return
    const line = sf.getLineAndCharacterOfPosition(pos).line + 1
    if (fr === c.rel && line === c.line) return
    const key = fr + ':' + line
    const call = isCall(tokenAt(sf, pos))
    const prev = uses.get(key)
    if (prev) prev.call = prev.call || call
    else uses.set(key, { path: fr, line, call })
  }
  const followAliases = (node, fileName, depth) => {
    if (depth >= 4) return
    const a = aliasesOf(node)
    for (const [afile, apos] of a.follow) {
      const key = afile + ':' + apos
      if (!visited.has(key)) { visited.add(key); work.push([afile, apos, depth + 1]) }
    }
    for (const [dfile, dpos] of a.direct) addUse(dfile, dpos)
  }
  followAliases(c.nameNode, c.file, 0) // a definition that is itself an export: module.exports.a = ...
  while (work.length > 0) {
    const [file, pos, depth] = work.shift()
    if (depth > 0) addTargets(file, pos)
    let refs = []
    try {
      refs = service.findReferences(file, pos) || []
    } catch (e) {
      console.error(`oracle_ts: findReferences failed for ${c.rel}:${c.line} ${c.name}: ${e.message}`)
    }
    for (const group of refs) {
      // the definition's own references, its aliases' (ES imports, re-exports) and, where a
      // CommonJS alias was followed, that alias's; not those of the related symbols
      // TypeScript adds (the interface member a class member implements, the method it
      // overrides, the other implementations): their uses are theirs, as in go/types
      const d = group.definition
      const at = (f, p) => d.fileName === f && d.textSpan.start <= p && p <= d.textSpan.start + d.textSpan.length
      if (!at(c.file, start) && !at(file, pos) && !(d.kind === ts.ScriptElementKind.alias && aliasTo(d, targets))) continue
      for (const ref of group.references) {
        if (ref.fileName === c.file && ref.textSpan.start === start) continue
        const sf = sourceFile(ref.fileName)
        if (!sf) continue
        const node = tokenAt(sf, ref.textSpan.start)
        if (ref.isDefinition && otherDeclaration(node)) continue
        followAliases(node, ref.fileName, depth)
        addUse(ref.fileName, ref.textSpan.start)
      }
    }
  }
  const list = [...uses.values()].sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line)
  process.stdout.write(JSON.stringify({ name: c.name, path: c.rel, line: c.line, kind: c.kind, callable: c.callable, uses: list }) + '\n')
}
console.error(`oracle_ts: ${files.length} files in the program, ${cands.length} candidate definitions, ${sample.length} sampled`)
