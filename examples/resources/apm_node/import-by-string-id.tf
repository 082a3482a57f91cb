import {
  to = apm_node.example
  id = "shop-prod/web-01"
}
