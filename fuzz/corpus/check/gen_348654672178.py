# jimport os
import su,bpr͖MMeMMt