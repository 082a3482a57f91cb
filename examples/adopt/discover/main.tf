# Discovery: lists every object of the manager with the discovery data sources and writes one
# import block for each, to adopt them all with `plan -generate-config-out` (guide "Adopting an
# existing platform"). It creates nothing: apply reads the lists and sets the output.
#
#   terraform -chdir=discover init
#   terraform -chdir=discover apply -auto-approve
#   terraform -chdir=discover output -raw imports > imports.tf
#
# One block per object, with the object's name as its address, because the CLIs generate
# configuration only for such blocks: not for an import block with for_each. Connection
# settings come from the environment (APM_ENDPOINT, APM_API_KEY, APM_CA_CERT_PEM).

terraform {
  required_version = ">= 1.5.0"

  required_providers {
    apm = {
      source = "apmplatform/apm"
    }
  }
}

provider "apm" {}

variable "by_identity" {
  description = "Write `identity = {...}` (Terraform and OpenTofu 1.12 and later) instead of `id` into the import blocks."
  type        = bool
  default     = false
}

data "apm_systems" "all" {}
data "apm_nodes" "all" {}
data "apm_was_servers" "all" {}
data "apm_web_servers" "all" {}
data "apm_session_servers" "all" {}
data "apm_databases" "all" {}
data "apm_datasources" "all" {}
data "apm_roles" "all" {}
data "apm_users" "all" {}

locals {
  # The servers by the name they get: <system>_<node>_<server_id>. Their parts take the same.
  was_servers = { for s in data.apm_was_servers.all.servers : "${s.system_name}_${s.node_name}_${s.server_id}" => s }
  web_servers = { for s in data.apm_web_servers.all.servers : "${s.system_name}_${s.node_name}_${s.server_id}" => s }
}

# The parts of each server and the grants of each user: these lists take their parent.
data "apm_was_applications" "all" {
  for_each      = local.was_servers
  was_server_id = each.value.id
}

data "apm_was_datasources" "all" {
  for_each      = local.was_servers
  was_server_id = each.value.id
}

data "apm_was_session_clusters" "all" {
  for_each      = local.was_servers
  was_server_id = each.value.id
}

data "apm_web_workers" "all" {
  for_each      = local.web_servers
  web_server_id = each.value.id
}

data "apm_web_uri_patterns" "all" {
  for_each      = local.web_servers
  web_server_id = each.value.id
}

data "apm_web_ssls" "all" {
  for_each      = local.web_servers
  web_server_id = each.value.id
}

data "apm_user_roles" "all" {
  for_each = { for u in data.apm_users.all.users : u.user_id => u }
  user_id  = each.key
}

locals {
  # Every object, by resource type and by its name: the item of its list, which holds its
  # import_id and the attributes of its identity.
  objects = {
    apm_system              = { for s in data.apm_systems.all.systems : s.name => s }
    apm_node                = { for n in data.apm_nodes.all.nodes : "${n.system_name}_${n.name}" => n }
    apm_was_server          = local.was_servers
    apm_web_server          = local.web_servers
    apm_session_server      = { for s in data.apm_session_servers.all.servers : "${s.system_name}_${s.node_name}_${s.server_id}" => s }
    apm_database            = { for d in data.apm_databases.all.databases : d.resource_name => d }
    apm_datasource          = { for d in data.apm_datasources.all.datasources : d.resource_name => d }
    apm_role                = { for r in data.apm_roles.all.roles : r.role_id => r }
    apm_user                = { for u in data.apm_users.all.users : u.user_id => u }
    apm_user_role           = merge([for user, d in data.apm_user_roles.all : { for g in d.grants : "${user}_${g.role_id}" => g }]...)
    apm_was_application     = merge([for server, d in data.apm_was_applications.all : { for a in d.applications : "${server}${a.context_path}" => a }]...)
    apm_was_datasource      = merge([for server, d in data.apm_was_datasources.all : { for a in d.attachments : "${server}_${a.datasource_name}" => a }]...)
    apm_was_session_cluster = merge([for server, d in data.apm_was_session_clusters.all : { for c in d.session_clusters : server => c }]...)
    apm_web_workers         = merge([for server, d in data.apm_web_workers.all : { for w in d.worker_maps : server => w }]...)
    apm_web_uri_patterns    = merge([for server, d in data.apm_web_uri_patterns.all : { for p in d.pattern_sets : server => p }]...)
    apm_web_ssl             = merge([for server, d in data.apm_web_ssls.all : { for s in d.ssl_setups : server => s }]...)
  }

  # The attributes of each type's identity, which its list items hold under the same names.
  identity = {
    apm_system              = ["id"]
    apm_node                = ["system_id", "name"]
    apm_was_server          = ["node_id", "server_id"]
    apm_web_server          = ["node_id", "server_id"]
    apm_session_server      = ["node_id", "server_id"]
    apm_database            = ["resource_name"]
    apm_datasource          = ["resource_name"]
    apm_role                = ["role_id"]
    apm_user                = ["user_id"]
    apm_user_role           = ["user_id", "role_id"]
    apm_was_application     = ["was_server_id", "context_path"]
    apm_was_datasource      = ["was_server_id", "datasource_name"]
    apm_was_session_cluster = ["was_server_id"]
    apm_web_workers         = ["web_server_id"]
    apm_web_uri_patterns    = ["web_server_id"]
    apm_web_ssl             = ["web_server_id"]
  }
}

output "imports" {
  description = "One import block for each object of the manager: write it to imports.tf of the adopting configuration."
  # A name becomes an identifier: every run of other characters becomes "_", and one that
  # starts with a digit gets a leading "_".
  value = join("", flatten([for type, objects in local.objects : [for name, o in objects : <<-EOT
    import {
      to = ${type}.${replace(replace(name, "/[^0-9A-Za-z_]+/", "_"), "/^([0-9])/", "_$1")}
      ${var.by_identity ? "identity = { ${join(", ", [for a in local.identity[type] : "${a} = ${jsonencode(o[a])}"])} }" : "id = ${jsonencode(o.import_id)}"}
    }
    EOT
  ]]))
}
