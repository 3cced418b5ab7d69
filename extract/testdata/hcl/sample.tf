# Terraform configuration for the log archive.

terraform {
  required_version = ">= 1.5"
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.0"
    }
  }
}

# The AWS provider for the primary region.
provider "aws" {
  region = var.region
}

# Region to deploy into.
variable "region" {
  type        = string
  default     = "eu-west-1"
  description = "AWS region"
}

variable "subnet_ids" {
  type    = list(string)
  default = []
}

locals {
  # Prefix of every bucket name.
  bucket_prefix = "quarry-${var.region}"
  common_tags = {
    Project = "quarry"
    Owner   = "search"
  }
}

// The network the service runs in.
module "vpc" {
  source  = "terraform-aws-modules/vpc/aws"
  version = "5.1.0"
  cidr    = "10.0.0.0/16"
}

/* The current caller, for the account id. */
data "aws_caller_identity" "current" {}

# Bucket that keeps access logs.
resource "aws_s3_bucket" "logs" {
  bucket = "${local.bucket_prefix}-logs"
  tags   = local.common_tags

  lifecycle {
    prevent_destroy = true
  }
}

resource "aws_s3_bucket_policy" "logs" {
  bucket = aws_s3_bucket.logs.id
  policy = jsonencode({
    Statement = [for id in var.subnet_ids : {
      Effect    = "Allow"
      Principal = data.aws_caller_identity.current.account_id
      Resource  = "${aws_s3_bucket.logs.arn}/*"
    }]
  })
  count = length(var.subnet_ids) > 0 ? 1 : 0
}

# ARN of the log bucket.
output "bucket_arn" {
  value       = aws_s3_bucket.logs.arn
  description = "ARN of the log bucket"
}

output "vpc_id" {
  value = module.vpc.vpc_id
}
