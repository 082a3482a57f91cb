variable "system_name" {
  description = "Name of the system."
  type        = string
  default     = "topology"
}

variable "nodes" {
  description = "The nodes of the system: name => host IP address. The web server runs on web-01, the session servers on app-01 and app-02."
  type        = map(string)
  default = {
    "web-01" = "10.0.1.10"
    "app-01" = "10.0.1.21"
    "app-02" = "10.0.1.22"
    "app-03" = "10.0.1.23"
  }
}

variable "was_servers" {
  description = "The WAS servers, by serverId: the node each runs on (one of var.nodes) and its edition, Standard or Enterprise. Each is a worker of the web server. Changing a server's node or edition replaces it."
  type = map(object({
    node        = string
    server_type = optional(string, "Standard")
  }))
  default = {
    "was-1" = { node = "app-01" }
    "was-2" = { node = "app-02" }
    "was-3" = { node = "app-03" }
  }
}

variable "session_port" {
  description = "Port of the session servers."
  type        = number
  default     = 15200
}

variable "database_resource_name" {
  description = "Name of the database resource in the manager."
  type        = string
  default     = "orders-db"
}

variable "database_password" {
  description = "Password of the database user shop, from a secret store (TF_VAR_database_password). Sent to the manager only, never stored in the plan or state."
  type        = string
  sensitive   = true
  ephemeral   = true
}

variable "database_password_version" {
  description = "Raise it with each new database_password: that sends the new password, replacing the database, the datasource and its attachments in one apply."
  type        = number
  default     = 1
}

variable "datasource_name" {
  description = "Name of the datasource in the manager, attached to every WAS server."
  type        = string
  default     = "orders-ds"
}

variable "tls_dir" {
  description = "Directory holding web-1.crt, the web server's certificate, and web-1.key, its private key, both PEM-encoded."
  type        = string
  default     = "tls"
}

variable "tls_key_version" {
  description = "Raise it with each new key in tls_dir: that sends the certificate and the key again."
  type        = number
  default     = 1
}

variable "operator_role_id" {
  description = "The role_id of the operators' role."
  type        = string
  default     = "shop-operators"
}

variable "operator_user_id" {
  description = "The user_id of the operator."
  type        = string
  default     = "shop-operator"
}

variable "operator_password" {
  description = "The operator's password, from a secret store (TF_VAR_operator_password): 8 to 128 characters with a letter, a digit and a special character. Sent to the manager only."
  type        = string
  sensitive   = true
  ephemeral   = true
}

variable "operator_password_version" {
  description = "Raise it with each new operator_password: that sends the new password."
  type        = number
  default     = 1
}
