variable "license_warning_days" {
  description = "Warn about licenses that expire within this many days."
  type        = number
  default     = 30
}

variable "disk_limit_percent" {
  description = "Warn about nodes whose disk usage is above this percentage."
  type        = number
  default     = 90
}
