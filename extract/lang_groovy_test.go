package extract

import (
	"testing"
)

// groovyRels indexes the relationships of f other than calls by target.
func groovyRels(f *File) map[string]RelKind {
	rels := map[string]RelKind{}
	for _, r := range f.Relationships {
		if r.Kind != Calls {
			rels[r.To] = r.Kind
		}
	}
	return rels
}

func TestGroovySymbols(t *testing.T) {
	f := extractString(t, "Shop.groovy", `package com.acme.shop

import java.util.concurrent.*
import static java.lang.Math.max

/** Orders places orders. */
@Slf4j
@CompileStatic
class Orders extends Base implements Closeable, Runnable {
    static final int LIMIT = 10
    private Map<String, Order> byId = [:]
    String region
    def onPlace = { Order o -> notify(o) }

    Orders(String region, int size) {
        setRegion(region)
    }

    /** Places one order. */
    Order place(String sku) {
        def o = new Order(sku)
        log.info("placed ${sku}")
        o
    }

    protected void close() throws IOException { byId.clear() }
}

interface Shape extends Named {
    double area()
}

trait Flying implements Moving {
    abstract int altitude()
    String fly() { "up" }
}

enum Color { RED, GREEN, BLUE }

class OrdersSpec extends Specification {
    def "places an order"() {
        expect: new Orders('eu', 1).place('x')
    }
}
`)
	checkSymbols(t, f, []symWant{
		{"com.acme.shop", Module, Public, "", ""},
		{"Orders", Class, Public, "Orders places orders.", ""},
		{"LIMIT", Constant, Public, "", "Orders"},
		{"byId", Field, Private, "", "Orders"},
		{"region", Property, Public, "", "Orders"},
		{"onPlace", Method, Public, "", "Orders"},
		{"place", Method, Public, "Places one order.", "Orders"},
		{"close", Method, Protected, "", "Orders"},
		{"Shape", Interface, Public, "", ""},
		{"area", Method, Public, "", "Shape"},
		{"Flying", Trait, Public, "", ""},
		{"altitude", Method, Public, "", "Flying"},
		{"fly", Method, Public, "", "Flying"},
		{"Color", Enum, Public, "", ""},
		{"RED", EnumMember, Public, "", "Color"},
		{"BLUE", EnumMember, Public, "", "Color"},
		{"places an order", Method, Public, "", "OrdersSpec"},
	})
	syms := symbolsByName(f)
	var ctor Symbol
	for _, s := range f.Symbols {
		if s.Kind == Constructor {
			ctor = s
		}
	}
	if ctor.Name != "Orders" || ctor.Signature != "Orders(String region, int size)" {
		t.Errorf("constructor = %q %q, want Orders(String region, int size)", ctor.Name, ctor.Signature)
	}
	for name, want := range map[string]string{
		"Orders":  "@Slf4j @CompileStatic class Orders extends Base implements Closeable, Runnable",
		"onPlace": "def onPlace = { Order o ->",
		"close":   "protected void close() throws IOException",
	} {
		if got := syms[name].Signature; got != want {
			t.Errorf("signature of %s = %q, want %q", name, got, want)
		}
	}
	if syms["java.util.concurrent.*"].Kind != Import || syms["java.lang.Math.max"].Metadata["static"] != "true" {
		t.Errorf("imports: %+v", f.Symbols[:3])
	}
	rels := groovyRels(f)
	for to, want := range map[string]RelKind{"Base": Extends, "Closeable": Implements, "Runnable": Implements, "Named": Extends, "Moving": Implements, "Specification": Extends} {
		if rels[to] != want {
			t.Errorf("relationship to %s = %v, want %v (all: %v)", to, rels[to], want, f.Relationships)
		}
	}
	for _, c := range []struct {
		name string
		kind IdentKind
	}{{"setRegion", Call}, {"info", Call}, {"Order", Call}, {"clear", Call}, {"notify", Call}, {"IOException", TypeUsage}, {"Map", TypeUsage}, {"sku", VariableRef}} {
		if !hasIdent(f, c.name, c.kind) {
			t.Errorf("no %s identifier %q", c.kind, c.name)
		}
	}
}

func TestGroovyScript(t *testing.T) {
	f := extractString(t, "deploy.groovy", `#!/usr/bin/env groovy
import groovy.transform.Field

// How many times a step is tried.
final int RETRIES = 3
@Field String target = 'eu'
def log = { msg -> println msg }
counter = 0

// Deploys to the target.
def deploy(String where) {
    def local = 1
    log("deploying to ${where}")
}

deploy(target)
`)
	checkSymbols(t, f, []symWant{
		{"RETRIES", Constant, "", "How many times a step is tried.", ""},
		{"target", Field, Private, "", ""},
		{"log", Function, "", "", ""},
		{"counter", Variable, Public, "", ""},
		{"deploy", Function, Public, "Deploys to the target.", ""},
	})
	if _, ok := symbolsByName(f)["local"]; ok {
		t.Error("a local variable became a symbol")
	}
	if !hasIdent(f, "deploy", Call) || !hasIdent(f, "log", Call) || !hasIdent(f, "where", VariableRef) {
		t.Errorf("missing calls or references: %+v", f.Identifiers)
	}
}

func TestGroovyGradle(t *testing.T) {
	f := extractString(t, "build.gradle", `plugins {
    id 'java'
    id 'org.jetbrains.kotlin.jvm' version '1.9.0'
}
apply plugin: 'maven-publish'
version = '1.0'

ext {
    junitVersion = '5.10.0'
}

android {
    buildTypes {
        release {
            debuggable {
                enabled = false
            }
        }
    }
}

// Says hello.
task hello {
    doLast { println 'hello' }
}

task copyDocs(type: Copy) {
    from 'docs'
}

tasks.register('integrationTest', Test) {
    description = 'Runs the integration tests.'
    useJUnitPlatform()
}
`)
	checkSymbols(t, f, []symWant{
		{"java", Import, "", "", ""},
		{"org.jetbrains.kotlin.jvm", Import, "", "", ""},
		{"maven-publish", Import, "", "", ""},
		{"version", Variable, Public, "", ""},
		{"ext", Property, "", "", ""},
		{"junitVersion", Variable, Public, "", "ext"},
		{"android", Property, "", "", ""},
		{"buildTypes", Property, "", "", "android"},
		{"release", Property, "", "", "buildTypes"},
		{"hello", Function, Public, "Says hello.", ""},
		{"copyDocs", Function, Public, "", ""},
		{"integrationTest", Function, Public, "Runs the integration tests.", ""},
	})
	syms := symbolsByName(f)
	if _, ok := syms["debuggable"]; ok {
		t.Error("a block deeper than gvMaxBlockDepth became a symbol")
	}
	if syms["org.jetbrains.kotlin.jvm"].Metadata["version"] != "1.9.0" {
		t.Errorf("plugin version: %v", syms["org.jetbrains.kotlin.jvm"].Metadata)
	}
	for name, typ := range map[string]string{"hello": "", "copyDocs": "Copy", "integrationTest": "Test"} {
		if m := syms[name].Metadata; m["task"] != "true" || m["type"] != typ {
			t.Errorf("metadata of task %s = %v, want type %q", name, m, typ)
		}
	}
	if !hasIdent(f, "doLast", Call) || !hasIdent(f, "useJUnitPlatform", Call) {
		t.Error("missing the calls inside tasks")
	}
}

func TestGroovyJenkinsfile(t *testing.T) {
	f := extractString(t, "Jenkinsfile", `@Library('shared-lib') _

pipeline {
    agent any
    environment {
        REGISTRY = 'registry.acme.com'
    }
    stages {
        // Builds it.
        stage('Build') {
            steps { sh 'make' }
        }
        stage('Test') {
            parallel {
                stage('Unit') {
                    steps { sh 'make test' }
                }
            }
        }
    }
}
`)
	checkSymbols(t, f, []symWant{
		{"shared-lib", Import, "", "", ""},
		{"pipeline", Property, "", "", ""},
		{"environment", Property, "", "", "pipeline"},
		{"REGISTRY", Variable, Public, "", "environment"},
		{"stages", Property, "", "", "pipeline"},
		{"Build", Method, "", "Builds it.", "stages"},
		{"Test", Method, "", "", "stages"},
		{"Unit", Method, "", "", "Test"},
	})
	if symbolsByName(f)["Build"].Metadata["stage"] != "true" || !hasIdent(f, "sh", Call) {
		t.Errorf("stage metadata or the sh call missing: %+v", f.Symbols)
	}

	scripted := extractString(t, "Jenkinsfile", `node('linux') {
    stage('Checkout') {
        checkout scm
    }
}
`)
	checkSymbols(t, scripted, []symWant{
		{"node", Property, "", "", ""},
		{"Checkout", Method, "", "", "node"},
	})
	if !hasIdent(scripted, "checkout", Call) || !hasIdent(scripted, "scm", VariableRef) {
		t.Errorf("checkout scm is not a call: %+v", scripted.Identifiers)
	}
}

func TestGroovyBrokenSource(t *testing.T) {
	f := extractString(t, "Half.groovy", `class Good {
    @Shared @AutoCleanup Sql sql
    def ok() { 1 }
}
class Half extends Good {
    def broken( {
`)
	if f.ParseErrors == 0 {
		t.Error("no parse error counted")
	}
	checkSymbols(t, f, []symWant{
		{"Good", Class, Public, "", ""},
		{"sql", Property, Public, "", "Good"},
		{"ok", Method, Public, "", "Good"},
	})
	checkBroken(t, "b.gradle", "task a {\n  doLast {\n", "a")
	checkBroken(t, "c.groovy", "def f() { 1 }\nclass X { def g(", "f")
}

func TestCloseGroovy(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"class A { def f() { 1 } }", "class A { def f() { 1 } }"},
		{`x { def f() { "a`, `x { def f() { "a"}}`},
		{"x { def x = [1,", "x { def x = [1,]}"},
		{`x { y("a ${b.c(`, `x { y("a ${b.c()}")}`},
		{"x {\n  /**\n   * Doc.\n   *", "x {\n  /**\n   * Doc.\n   * */}"},
		{"x { // note {", "x { // note {\n}"},
		{"x { a /", "x { a //\n}"},
		{`x { '\`, `x { '\\'}`},
		{`x { """a ' " { """ + (`, `x { """a ' " { """ + ()}`},
		{"x { a) }", "x { a) }"},
	} {
		if got := string(closeGroovy([]byte(c.src))); got != c.want {
			t.Errorf("closeGroovy(%q) = %q, want %q", c.src, got, c.want)
		}
	}
}

// TestGroovyHalfWritten extracts files cut where the grammar's error recovery would not end
// without the repair: the extraction is quick, and its spans stay inside the file.
func TestGroovyHalfWritten(t *testing.T) {
	for _, src := range []string{
		"class A {\n    def f() {\n        if (a.size() >= MAX_L",
		"class A {\n    private Map<String, B> bs = [:",
		"class A {\n    String greet() { \"Hello, ${name",
		"class A {\n    void f() {\n        /",
	} {
		f := extractString(t, "A.groovy", src)
		if _, ok := symbolsByName(f)["A"]; !ok || f.ParseErrors == 0 {
			t.Errorf("%q: class A missing or no parse error: %+v", src, f.Symbols)
		}
		for _, s := range f.Symbols {
			if s.EndByte > len(src) {
				t.Errorf("%q: %s ends at byte %d, past the end of the file", src, s.Name, s.EndByte)
			}
		}
	}
}
