# The system's name, or its id (such as "SYS-0001").
import {
  to = apm_system.example
  id = "shop-prod"
}
