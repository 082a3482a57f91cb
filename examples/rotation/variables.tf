variable "was_server_id" {
  description = "The id of the WAS server that uses the datasource, as apm_was_server.<name>.id gives it: <system_id>/<node>/<server_id>."
  type        = string
}

variable "orders_db_password" {
  description = "Password of the database user orders_app, from a secret store (TF_VAR_orders_db_password)."
  type        = string
  sensitive   = true
  ephemeral   = true
}

variable "orders_db_password_version" {
  description = "Raise it by one with each new orders_db_password: that sends the new password, replacing the database."
  type        = number
  default     = 1
}

variable "deployer_password" {
  description = "Password of the user deployer, from a secret store (TF_VAR_deployer_password)."
  type        = string
  sensitive   = true
  ephemeral   = true
}

variable "deployer_password_version" {
  description = "Raise it by one with each new deployer_password: that sends the new password, in place."
  type        = number
  default     = 1
}
