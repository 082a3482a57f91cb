variable "shop" { type = string }
variable "shop2" { type = string }

resource "apm_system" "shop" {
  name = var.shop
}

resource "apm_system" "shop2" {
  name = var.shop2
}
