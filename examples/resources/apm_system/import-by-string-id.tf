import {
  to = apm_system.example
  id = "shop-prod"
}
