# A team's root module as the README's "Use with modules" shows it: one local module, used
# twice, each time with its own manager (two aliases of the provider). The provider comes from
# the directory `make install` fills; nothing configures the CLI.
terraform {
  required_providers {
    apm = {
      source = "apmplatform/apm"
    }
  }
}

variable "staging_endpoint" {
  type = string
}

variable "staging_api_key" {
  type      = string
  sensitive = true
}

variable "prod_endpoint" {
  type = string
}

variable "prod_api_key" {
  type      = string
  sensitive = true
}

# The test fills these in (tf): the systems' names, prefixed on a real manager.
variable "staging_system" { type = string }
variable "prod_system" { type = string }

provider "apm" {
  alias    = "staging"
  endpoint = var.staging_endpoint
  api_key  = var.staging_api_key
}

provider "apm" {
  alias    = "prod"
  endpoint = var.prod_endpoint
  api_key  = var.prod_api_key
}

module "staging" {
  source    = "./modules/shop"
  providers = { apm = apm.staging }
  system    = var.staging_system
}

module "prod" {
  source    = "./modules/shop"
  providers = { apm = apm.prod }
  system    = var.prod_system
}

output "staging_node_id" {
  value = module.staging.node_id
}

output "prod_node_id" {
  value = module.prod.node_id
}
