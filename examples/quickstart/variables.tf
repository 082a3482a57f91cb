variable "system_name" {
  description = "Name of the APM system (letters, digits, - and _, at most 20 characters). Changing it renames the system in place."
  type        = string
  default     = "quickstart"
}

variable "nodes" {
  description = "Nodes to register, as name => host IP address."
  type        = map(string)
  default = {
    "web-01" = "10.0.0.11"
    "web-02" = "10.0.0.12"
  }
}

variable "agent_port" {
  description = "TCP port the APM agent listens on, on every node."
  type        = number
  default     = 7730
}
