variable "system_name" {
  description = "Name of the system: lowercase letters, digits and hyphens, starting with a letter."
  type        = string

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{0,62}$", var.system_name))
    error_message = "system_name must be lowercase letters, digits and hyphens, starting with a letter (at most 63)."
  }
}

variable "nodes" {
  description = "The system's nodes: name => host IP."
  type        = map(string)
  default = {
    "web-01" = "10.0.0.11"
    "app-01" = "10.0.0.21"
    "app-02" = "10.0.0.22"
  }
}

variable "web_node" {
  description = "The node of the web server: a key of nodes."
  type        = string
  default     = "web-01"
}

variable "was_servers" {
  description = "The WAS servers: server id => the node it runs on (a key of nodes)."
  type        = map(string)
  default = {
    "was-1" = "app-01"
    "was-2" = "app-02"
  }
}

variable "lb_factor" {
  description = "Load-balancing factor of every worker."
  type        = number
  default     = 1
}
