variable "name" { type = string }
variable "database_id" { type = string }
variable "min_pool_size" { type = number }
variable "max_pool_size" { type = number }
variable "initial_pool_size" { type = number }
variable "max_wait" { type = number }
variable "timeouts" { type = object({ delete = string }) }

# The optional variables may be null, which leaves their argument out.
resource "apm_datasource" "ds" {
  resource_name     = var.name
  database_id       = var.database_id
  min_pool_size     = var.min_pool_size
  max_pool_size     = var.max_pool_size
  initial_pool_size = var.initial_pool_size
  max_wait          = var.max_wait
  timeouts          = var.timeouts
}
