package extract

import (
	"testing"
)

func TestHCLSymbols(t *testing.T) {
	f := extractString(t, "main.tf", `# Logs.
resource "aws_s3_bucket" "logs" {
  bucket = var.name
}

data "aws_iam_policy_document" "read" {}

module "vpc" {
  source = "./vpc"
}

provider "aws" {
  alias = "west"
}

variable "name" {
  type        = string
  description = "Bucket name"
}

locals {
  # Prefix.
  prefix = "q-${var.name}"
}

output "arn" {
  value = aws_s3_bucket.logs.arn
}
`)
	checkSymbols(t, f, []symWant{
		{"aws_s3_bucket.logs", Class, Private, "Logs.", ""},
		{"bucket", Field, "", "", "aws_s3_bucket.logs"},
		{"data.aws_iam_policy_document.read", Class, Private, "", ""},
		{"vpc", Module, Private, "", ""},
		{"aws.west", Namespace, "", "", ""},
		{"name", Variable, Public, "Bucket name", ""},
		{"prefix", Constant, Private, "Prefix.", ""},
		{"arn", Property, Public, "", ""},
	})
	if s := symbolsByName(f)["aws_s3_bucket.logs"]; s.Signature != `resource "aws_s3_bucket" "logs"` {
		t.Errorf("signature = %q, want the block header", s.Signature)
	}
	for _, want := range []struct {
		name string
		kind IdentKind
	}{{"name", VariableRef}, {"aws_s3_bucket.logs", VariableRef}, {"arn", MemberAccess}} {
		if !hasIdent(f, want.name, want.kind) {
			t.Errorf("no %s identifier %q in %+v", want.kind, want.name, f.Identifiers)
		}
	}
	if hasIdent(f, "string", VariableRef) {
		t.Error("a variable's type became a variable reference")
	}
}
