variable "system_name" { type = string }
variable "database_name" { type = string }
variable "orders_ds" { type = string }
variable "billing_ds" { type = string }
variable "alice" { type = string }
variable "bob" { type = string }
variable "viewers" { type = string }
variable "operators" { type = string }
variable "certificate_pem" { type = string }
variable "private_key_pem" { type = string }
variable "module_source" { type = string }
variable "system_id" { type = string }

# The platform of discovery/platform.tf as a child module, from module_source: the module
# alone, or with imports.tf beside it.
module "platform" {
  source = var.module_source

  system_name     = var.system_name
  database_name   = var.database_name
  orders_ds       = var.orders_ds
  billing_ds      = var.billing_ds
  alice           = var.alice
  bob             = var.bob
  viewers         = var.viewers
  operators       = var.operators
  certificate_pem = var.certificate_pem
  private_key_pem = var.private_key_pem
  system_id       = var.system_id
}
