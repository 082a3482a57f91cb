variable "system_name" {
  description = "Name of the system."
  type        = string
  default     = "topology"
}

variable "nodes" {
  description = "The nodes of the system: name => host IP address. The topology uses web-01, app-01 and app-02."
  type        = map(string)
  default = {
    "web-01" = "10.0.1.10"
    "app-01" = "10.0.1.21"
    "app-02" = "10.0.1.22"
  }
}

variable "session_port" {
  description = "Port of the session servers."
  type        = number
  default     = 15200
}

variable "datasource_name" {
  description = "Name of an existing datasource of the manager to attach to the WAS servers (`make demo` creates orders-ds first)."
  type        = string
  default     = "orders-ds"
}
