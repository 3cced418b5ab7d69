/*
 * The Java navigation oracle of bench/nav.sh: javac's own attribution (the com.sun.source tree
 * API of JDK 17) over a source tree.
 *
 *   java --add-exports jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED \
 *        bench/nav/oracle_java/Oracle.java ROOT [--n 150] [--seed quarry-nav] [--sample P,...] \
 *        [-- JAVAC-OPTION...]
 *
 * Every .java file under ROOT (module-info.java and package-info.java aside) is parsed and
 * attributed in one JavacTask (parse() then analyze()); the options after "--" go to javac
 * (--patch-module M=ROOT to compile a JDK module's sources as that module). Samples definitions
 * deterministically (classes, interfaces, enums, records, annotation types, methods, fields,
 * constants and enum constants at any depth, anonymous and local classes' members included;
 * not constructors, parameters, locals or type parameters) and prints one JSON line per
 * definition: {"name","path","line","kind","callable","uses":[{"path","line","call"}]}: every
 * identifier, member select and method reference of the tree whose element
 * (Trees.getElement) is the definition, on the line of its name, less the definition's own
 * line, one per line. See README.md beside nav.sh's oracles.
 */

import com.sun.source.tree.*;
import com.sun.source.util.*;
import com.sun.tools.javac.tree.JCTree;

import javax.lang.model.element.*;
import javax.tools.*;
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.security.MessageDigest;
import java.util.*;
import java.util.stream.*;

public class Oracle {
    static Path root;
    static String seed = "quarry-nav";
    static int n = 150;
    static List<String> prefixes = new ArrayList<>();
    static List<String> javacOpts = new ArrayList<>();

    record Cand(Element el, String rel, String name, int line, String kind, boolean callable, String key) {}

    record Use(String rel, int line, boolean call) {}

    public static void main(String[] args) throws Exception {
        List<String> pos = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--n" -> n = Integer.parseInt(args[++i]);
                case "--seed" -> seed = args[++i];
                case "--sample" -> {
                    for (String p : args[++i].split(",")) if (!p.isEmpty()) prefixes.add(p);
                }
                case "--" -> {
                    javacOpts.addAll(Arrays.asList(args).subList(i + 1, args.length));
                    i = args.length;
                }
                default -> pos.add(args[i]);
            }
        }
        if (pos.size() != 1 || n < 1) {
            System.err.println("usage: java Oracle.java ROOT [--n N] [--seed S] [--sample P,...] [-- JAVAC-OPTION...]");
            System.exit(2);
        }
        root = Paths.get(pos.get(0)).toAbsolutePath().normalize();
        List<Path> files;
        try (Stream<Path> s = Files.walk(root)) {
            files = s.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> !p.getFileName().toString().equals("module-info.java")
                            && !p.getFileName().toString().equals("package-info.java"))
                    .filter(p -> {
                        for (Path part : root.relativize(p)) {
                            String x = part.toString();
                            if (x.startsWith(".") || x.equals("node_modules") || x.equals("vendor")) return false;
                        }
                        return true;
                    })
                    .sorted().collect(Collectors.toList());
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diags = new DiagnosticCollector<>();
        StandardJavaFileManager fm = javac.getStandardFileManager(diags, null, StandardCharsets.UTF_8);
        List<String> opts = new ArrayList<>(List.of("-proc:none", "-implicit:none", "-Xlint:none", "-nowarn"));
        opts.addAll(javacOpts);
        JavacTask task = (JavacTask) javac.getTask(null, fm, diags, opts, null,
                fm.getJavaFileObjectsFromPaths(files));
        List<CompilationUnitTree> units = new ArrayList<>();
        for (CompilationUnitTree u : task.parse()) units.add(u);
        task.analyze();
        int errors = 0;
        for (Diagnostic<? extends JavaFileObject> d : diags.getDiagnostics()) {
            if (d.getKind() == Diagnostic.Kind.ERROR) {
                if (errors++ < 20) System.err.println("oracle_java: " + d);
            }
        }
        if (errors > 0) {
            System.err.println("oracle_java: javac reported " + errors + " errors: the oracle needs a tree that compiles");
            System.exit(1);
        }
        Trees trees = Trees.instance(task);
        SourcePositions sp = trees.getSourcePositions();

        // candidates, and every use of every element
        Map<String, List<Cand>> byFile = new TreeMap<>();
        Map<Element, Set<Use>> uses = new HashMap<>();
        int ncand = 0;
        for (CompilationUnitTree u : units) {
            String rel = root.relativize(Paths.get(u.getSourceFile().toUri())).toString().replace(File.separatorChar, '/');
            String text = u.getSourceFile().getCharContent(true).toString();
            LineMap lm = u.getLineMap();
            boolean sampled = inSample(rel) && !isTest(rel);
            List<Cand> cands = new ArrayList<>();
            new TreePathScanner<Void, Void>() {
                void cand(Tree t, String name, String kind, boolean callable) {
                    if (!sampled || name.length() < 3) return;
                    Element el = trees.getElement(getCurrentPath());
                    if (el == null) return;
                    long p = namePos(text, ((JCTree) t).pos, name);
                    if (p < 0) return;
                    int line = (int) lm.getLineNumber(p);
                    cands.add(new Cand(el, rel, name, line, kind, callable, hash(rel + ":" + name + ":" + line)));
                }

                void use(Tree t, Element el, String name, long end) {
                    if (el == null || name == null || name.isEmpty()) return;
                    long p = end >= 0 ? end - name.length() : -1;
                    if (p < 0 || !text.startsWith(name, (int) p)) {
                        // no end position: the name from the tree's preferred position on
                        p = namePos(text, ((JCTree) t).pos, name);
                    }
                    if (p < 0) return;
                    boolean call = false;
                    TreePath parent = getCurrentPath().getParentPath();
                    Tree pt = parent == null ? null : parent.getLeaf();
                    if (pt instanceof MethodInvocationTree mi && mi.getMethodSelect() == t) call = true;
                    if (pt instanceof NewClassTree nc && nc.getIdentifier() == t) call = true;
                    if (pt instanceof ParameterizedTypeTree ptt && ptt.getType() == t && parent.getParentPath() != null
                            && parent.getParentPath().getLeaf() instanceof NewClassTree nc2 && nc2.getIdentifier() == pt) call = true;
                    uses.computeIfAbsent(el, k -> new HashSet<>()).add(new Use(rel, (int) lm.getLineNumber(p), call));
                }

                @Override
                public Void visitClass(ClassTree t, Void v) {
                    String name = t.getSimpleName().toString();
                    if (!name.isEmpty()) {
                        String kind = switch (t.getKind()) {
                            case INTERFACE -> "interface";
                            case ENUM -> "enum";
                            case ANNOTATION_TYPE -> "annotation";
                            case RECORD -> "record";
                            default -> "class";
                        };
                        cand(t, name, kind, false);
                    }
                    return super.visitClass(t, v);
                }

                @Override
                public Void visitMethod(MethodTree t, Void v) {
                    String name = t.getName().toString();
                    if (!name.equals("<init>")) cand(t, name, "method", true);
                    return super.visitMethod(t, v);
                }

                @Override
                public Void visitVariable(VariableTree t, Void v) {
                    Tree parent = getCurrentPath().getParentPath().getLeaf();
                    if (parent instanceof ClassTree) {
                        Element el = trees.getElement(getCurrentPath());
                        String kind = "field";
                        if (el != null && el.getKind() == ElementKind.ENUM_CONSTANT) kind = "enum_member";
                        else if (t.getModifiers().getFlags().contains(Modifier.STATIC) && t.getModifiers().getFlags().contains(Modifier.FINAL))
                            kind = "constant";
                        else if (((ClassTree) parent).getKind() == Tree.Kind.INTERFACE) kind = "constant";
                        if (el != null && el.getKind() != ElementKind.RECORD_COMPONENT) cand(t, t.getName().toString(), kind, false);
                    }
                    return super.visitVariable(t, v);
                }

                @Override
                public Void visitIdentifier(IdentifierTree t, Void v) {
                    String name = t.getName().toString();
                    if (!name.equals("this") && !name.equals("super")) {
                        use(t, trees.getElement(getCurrentPath()), name, sp.getEndPosition(u, t));
                    }
                    return super.visitIdentifier(t, v);
                }

                @Override
                public Void visitMemberSelect(MemberSelectTree t, Void v) {
                    String name = t.getIdentifier().toString();
                    if (!name.equals("this") && !name.equals("super") && !name.equals("class") && !name.equals("*")) {
                        use(t, trees.getElement(getCurrentPath()), name, sp.getEndPosition(u, t));
                    }
                    return super.visitMemberSelect(t, v);
                }

                @Override
                public Void visitMemberReference(MemberReferenceTree t, Void v) {
                    String name = t.getName().toString();
                    if (!name.equals("new")) {
                        use(t, trees.getElement(getCurrentPath()), name, sp.getEndPosition(u, t));
                    }
                    return super.visitMemberReference(t, v);
                }

                @Override
                public Void visitImport(ImportTree t, Void v) {
                    // import static a.b.C.m: every static member m of C (javac leaves the tree
                    // unattributed); a type import is a use of the type like any other select
                    if (t.isStatic() && t.getQualifiedIdentifier() instanceof MemberSelectTree ms
                            && !ms.getIdentifier().contentEquals("*")) {
                        TreePath qp = new TreePath(new TreePath(getCurrentPath(), ms), ms.getExpression());
                        Element type = trees.getElement(qp);
                        if (type instanceof TypeElement te) {
                            for (Element m : te.getEnclosedElements()) {
                                if (m.getSimpleName().contentEquals(ms.getIdentifier()) && m.getModifiers().contains(Modifier.STATIC)) {
                                    use(ms, m, ms.getIdentifier().toString(), sp.getEndPosition(u, ms));
                                }
                            }
                        }
                        scan(ms.getExpression(), v);
                        return null;
                    }
                    return super.visitImport(t, v);
                }
            }.scan(u, null);
            if (!cands.isEmpty()) byFile.put(rel, cands);
            ncand += cands.size();
        }

        // the sample: files by hash, each file's candidates by hash, round robin
        List<String> order = new ArrayList<>(byFile.keySet());
        order.sort(Comparator.comparing(Oracle::hash));
        for (String r : order) byFile.get(r).sort(Comparator.comparing(Cand::key));
        List<Cand> sample = new ArrayList<>();
        for (int round = 0; sample.size() < n; round++) {
            boolean took = false;
            for (String r : order) {
                List<Cand> l = byFile.get(r);
                if (round < l.size() && sample.size() < n) {
                    sample.add(l.get(round));
                    took = true;
                }
            }
            if (!took) break;
        }

        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
        for (Cand c : sample) {
            TreeMap<String, Boolean> lines = new TreeMap<>();
            for (Use us : uses.getOrDefault(c.el, Set.of())) {
                if (us.rel.equals(c.rel) && us.line == c.line) continue;
                String k = us.rel + "\0" + String.format("%09d", us.line);
                lines.merge(k, us.call, Boolean::logicalOr);
            }
            StringBuilder b = new StringBuilder();
            b.append("{\"name\":").append(json(c.name)).append(",\"path\":").append(json(c.rel))
                    .append(",\"line\":").append(c.line).append(",\"kind\":").append(json(c.kind))
                    .append(",\"callable\":").append(c.callable).append(",\"uses\":[");
            boolean first = true;
            for (Map.Entry<String, Boolean> e : lines.entrySet()) {
                String[] kv = e.getKey().split("\0");
                if (!first) b.append(",");
                first = false;
                b.append("{\"path\":").append(json(kv[0])).append(",\"line\":").append(Integer.parseInt(kv[1]))
                        .append(",\"call\":").append(e.getValue()).append("}");
            }
            b.append("]}");
            out.println(b);
        }
        out.flush();
        System.err.printf("oracle_java: %d files, %d candidate definitions, %d sampled%n", files.size(), ncand, sample.size());
    }

    static boolean inSample(String rel) {
        if (prefixes.isEmpty()) return true;
        for (String p : prefixes) {
            String q = p.endsWith("/") ? p.substring(0, p.length() - 1) : p;
            if (rel.equals(q) || rel.startsWith(q + "/")) return true;
        }
        return false;
    }

    static boolean isTest(String rel) {
        String r = "/" + rel;
        return r.contains("/test/") || r.contains("/tests/") || rel.endsWith("Test.java") || rel.endsWith("Tests.java");
    }

    // namePos returns the position of the first whole-word occurrence of name at or after from
    // (a declaration's position is its keyword's or its name's), or -1.
    static long namePos(String text, int from, String name) {
        if (from < 0) return -1;
        for (int i = text.indexOf(name, from); i >= 0; i = text.indexOf(name, i + 1)) {
            boolean before = i == 0 || !Character.isJavaIdentifierPart(text.charAt(i - 1));
            int e = i + name.length();
            boolean after = e >= text.length() || !Character.isJavaIdentifierPart(text.charAt(e));
            if (before && after) return i;
        }
        return -1;
    }

    static String hash(String s) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-1");
            byte[] d = md.digest((seed + "\0" + s).getBytes(StandardCharsets.UTF_8));
            StringBuilder b = new StringBuilder();
            for (byte x : d) b.append(String.format("%02x", x));
            return b.toString();
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }

    static String json(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                default -> {
                    if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
                    else b.append(c);
                }
            }
        }
        return b.append('"').toString();
    }
}
