d()[s(), glossswd_])
