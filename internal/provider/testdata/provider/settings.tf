variable "endpoint" { type = string }
variable "api_key" { type = string }
variable "max_retries" { type = number }
variable "request_timeout" { type = string }
variable "ca_cert_pem" { type = string }
variable "skip_connection_check" { type = bool }
variable "adopt_existing" { type = bool }

# A null argument is one not set.
provider "apm" {
  endpoint              = var.endpoint
  api_key               = var.api_key
  max_retries           = var.max_retries
  request_timeout       = var.request_timeout
  ca_cert_pem           = var.ca_cert_pem
  skip_connection_check = var.skip_connection_check
  adopt_existing        = var.adopt_existing
}
