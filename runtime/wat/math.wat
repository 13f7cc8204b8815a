;; math.wat: the math module's functions that are one libm call each (math.py in the
;; compiler's stdlib/ writes the others in the plan language). The host computes them with its C
;; library, as CPython does, through `baton.libm(op, x, y)` ($libm_<name> are the ops, assembled
;; from `baton_runtime::LIBM_FUNCTIONS`); this file gives them CPython 3.11's argument handling
;; and its errors (Modules/mathmodule.c: math_1, math_2, math.pow, math.fmod, math.log).

;; A finite x: x - x is 0 only for finite x (inf - inf and nan - nan are nan).
(func $math_finite (param $x f64) (result i32)
  (f64.eq (f64.sub (local.get $x) (local.get $x)) (f64.const 0)))

;; CPython's math_1 on the result r of f(x): a nan from a non-nan is a domain error; an infinity
;; from a finite x is a range error for the functions that can overflow, else a domain error
;; (a pole: log(0), atanh(1)).
(func $math_1 (param $x f64) (param $r f64) (param $can_overflow i32) (result i64)
  (if (i32.and (f64.ne (local.get $r) (local.get $r)) (f64.eq (local.get $x) (local.get $x)))
    (then (call $raise_static (global.get $t_ValueError) (global.get $s_math_domain))))
  (if (i32.and (i32.eqz (call $math_finite (local.get $r))) (call $math_finite (local.get $x)))
    (then
      (if (local.get $can_overflow)
        (then (call $raise_static (global.get $t_OverflowError) (global.get $s_math_range))))
      (call $raise_static (global.get $t_ValueError) (global.get $s_math_domain))))
  (call $float_new (local.get $r)))

;; CPython's math_2 on r = f(x, y): nan from non-nans is a domain error, an infinity from
;; finite arguments a range error.
(func $math_2 (param $x f64) (param $y f64) (param $r f64) (result i64)
  (if (i32.and (f64.ne (local.get $r) (local.get $r))
        (i32.and (f64.eq (local.get $x) (local.get $x)) (f64.eq (local.get $y) (local.get $y))))
    (then (call $raise_static (global.get $t_ValueError) (global.get $s_math_domain))))
  (if (i32.and (i32.eqz (call $math_finite (local.get $r)))
        (i32.and (f64.eq (local.get $r) (local.get $r))
          (i32.and (call $math_finite (local.get $x)) (call $math_finite (local.get $y)))))
    (then (call $raise_static (global.get $t_OverflowError) (global.get $s_math_range))))
  (call $float_new (local.get $r)))

;; The one argument of math.<name>(x), as a float.
(func $math_arg (param $name i32) (param $args i32) (param $kwargs i32) (result f64)
  (call $as_f64 (call $one_arg (local.get $name) (local.get $args) (local.get $kwargs))))

;; The two arguments of math.<name>(x, y), as floats: "<short> expected 2 arguments, got N".
(func $math_args2 (param $name i32) (param $short i32) (param $args i32) (param $kwargs i32) (result f64 f64)
  (call $no_kwargs (local.get $name) (local.get $kwargs))
  (if (i32.ne (call $nargs (local.get $args)) (i32.const 2))
    (then (call $num_count_error (global.get $s_math_two_args) (local.get $short) (call $nargs (local.get $args)))))
  (call $as_f64 (call $arg (local.get $args) (i32.const 0)))
  (call $as_f64 (call $arg (local.get $args) (i32.const 1))))

(func $math_libm1 (param $op i32) (param $name i32) (param $args i32) (param $kwargs i32) (param $can_overflow i32) (result i64)
  (local $x f64)
  (local.set $x (call $math_arg (local.get $name) (local.get $args) (local.get $kwargs)))
  (call $math_1 (local.get $x) (call $host_libm (local.get $op) (local.get $x) (f64.const 0)) (local.get $can_overflow)))

(func $b_math_exp (param $args i32) (param $kwargs i32) (result i64)
  (call $math_libm1 (global.get $libm_exp) (global.get $s_math_name_exp) (local.get $args) (local.get $kwargs) (i32.const 1)))
(func $b_math_exp2 (param $args i32) (param $kwargs i32) (result i64)
  (call $math_libm1 (global.get $libm_exp2) (global.get $s_math_name_exp2) (local.get $args) (local.get $kwargs) (i32.const 1)))
(func $b_math_expm1 (param $args i32) (param $kwargs i32) (result i64)
  (call $math_libm1 (global.get $libm_expm1) (global.get $s_math_name_expm1) (local.get $args) (local.get $kwargs) (i32.const 1)))
(func $b_math_log2 (param $args i32) (param $kwargs i32) (result i64)
  (call $math_libm1 (global.get $libm_log2) (global.get $s_math_name_log2) (local.get $args) (local.get $kwargs) (i32.const 0)))
(func $b_math_log10 (param $args i32) (param $kwargs i32) (result i64)
  (call $math_libm1 (global.get $libm_log10) (global.get $s_math_name_log10) (local.get $args) (local.get $kwargs) (i32.const 0)))
(func $b_math_log1p (param $args i32) (param $kwargs i32) (result i64)
  (call $math_libm1 (global.get $libm_log1p) (global.get $s_math_name_log1p) (local.get $args) (local.get $kwargs) (i32.const 0)))
(func $b_math_sin (param $args i32) (param $kwargs i32) (result i64)
  (call $math_libm1 (global.get $libm_sin) (global.get $s_math_name_sin) (local.get $args) (local.get $kwargs) (i32.const 0)))
(func $b_math_cos (param $args i32) (param $kwargs i32) (result i64)
  (call $math_libm1 (global.get $libm_cos) (global.get $s_math_name_cos) (local.get $args) (local.get $kwargs) (i32.const 0)))
(func $b_math_tan (param $args i32) (param $kwargs i32) (result i64)
  (call $math_libm1 (global.get $libm_tan) (global.get $s_math_name_tan) (local.get $args) (local.get $kwargs) (i32.const 0)))
(func $b_math_asin (param $args i32) (param $kwargs i32) (result i64)
  (call $math_libm1 (global.get $libm_asin) (global.get $s_math_name_asin) (local.get $args) (local.get $kwargs) (i32.const 0)))
(func $b_math_acos (param $args i32) (param $kwargs i32) (result i64)
  (call $math_libm1 (global.get $libm_acos) (global.get $s_math_name_acos) (local.get $args) (local.get $kwargs) (i32.const 0)))
(func $b_math_atan (param $args i32) (param $kwargs i32) (result i64)
  (call $math_libm1 (global.get $libm_atan) (global.get $s_math_name_atan) (local.get $args) (local.get $kwargs) (i32.const 0)))
(func $b_math_sinh (param $args i32) (param $kwargs i32) (result i64)
  (call $math_libm1 (global.get $libm_sinh) (global.get $s_math_name_sinh) (local.get $args) (local.get $kwargs) (i32.const 1)))
(func $b_math_cosh (param $args i32) (param $kwargs i32) (result i64)
  (call $math_libm1 (global.get $libm_cosh) (global.get $s_math_name_cosh) (local.get $args) (local.get $kwargs) (i32.const 1)))
(func $b_math_tanh (param $args i32) (param $kwargs i32) (result i64)
  (call $math_libm1 (global.get $libm_tanh) (global.get $s_math_name_tanh) (local.get $args) (local.get $kwargs) (i32.const 0)))
(func $b_math_asinh (param $args i32) (param $kwargs i32) (result i64)
  (call $math_libm1 (global.get $libm_asinh) (global.get $s_math_name_asinh) (local.get $args) (local.get $kwargs) (i32.const 0)))
(func $b_math_acosh (param $args i32) (param $kwargs i32) (result i64)
  (call $math_libm1 (global.get $libm_acosh) (global.get $s_math_name_acosh) (local.get $args) (local.get $kwargs) (i32.const 0)))
(func $b_math_atanh (param $args i32) (param $kwargs i32) (result i64)
  (call $math_libm1 (global.get $libm_atanh) (global.get $s_math_name_atanh) (local.get $args) (local.get $kwargs) (i32.const 0)))
(func $b_math_cbrt (param $args i32) (param $kwargs i32) (result i64)
  (call $math_libm1 (global.get $libm_cbrt) (global.get $s_math_name_cbrt) (local.get $args) (local.get $kwargs) (i32.const 0)))
(func $b_math_erf (param $args i32) (param $kwargs i32) (result i64)
  (call $math_libm1 (global.get $libm_erf) (global.get $s_math_name_erf) (local.get $args) (local.get $kwargs) (i32.const 0)))
(func $b_math_erfc (param $args i32) (param $kwargs i32) (result i64)
  (call $math_libm1 (global.get $libm_erfc) (global.get $s_math_name_erfc) (local.get $args) (local.get $kwargs) (i32.const 0)))

(func $b_math_sqrt (param $args i32) (param $kwargs i32) (result i64)
  (local $x f64)
  (local.set $x (call $math_arg (global.get $s_math_name_sqrt) (local.get $args) (local.get $kwargs)))
  (call $math_1 (local.get $x) (f64.sqrt (local.get $x)) (i32.const 0)))

(func $b_math_fabs (param $args i32) (param $kwargs i32) (result i64)
  (call $float_new (f64.abs (call $math_arg (global.get $s_math_name_fabs) (local.get $args) (local.get $kwargs)))))

(func $b_math_isfinite (param $args i32) (param $kwargs i32) (result i64)
  (call $bool (call $math_finite (call $math_arg (global.get $s_math_name_isfinite) (local.get $args) (local.get $kwargs)))))

(func $b_math_isnan (param $args i32) (param $kwargs i32) (result i64)
  (local $x f64)
  (local.set $x (call $math_arg (global.get $s_math_name_isnan) (local.get $args) (local.get $kwargs)))
  (call $bool (f64.ne (local.get $x) (local.get $x))))

(func $b_math_isinf (param $args i32) (param $kwargs i32) (result i64)
  (call $bool (f64.eq (f64.abs (call $math_arg (global.get $s_math_name_isinf) (local.get $args) (local.get $kwargs)))
    (f64.const inf))))

(func $b_math_atan2 (param $args i32) (param $kwargs i32) (result i64)
  (local $x f64) (local $y f64)
  (call $math_args2 (global.get $s_math_name_atan2) (global.get $s_math_short_atan2) (local.get $args) (local.get $kwargs))
  (local.set $y) (local.set $x)
  (call $math_2 (local.get $x) (local.get $y) (call $host_libm (global.get $libm_atan2) (local.get $x) (local.get $y))))

(func $b_math_copysign (param $args i32) (param $kwargs i32) (result i64)
  (local $x f64) (local $y f64)
  (call $math_args2 (global.get $s_math_name_copysign) (global.get $s_math_short_copysign) (local.get $args) (local.get $kwargs))
  (local.set $y) (local.set $x)
  (call $float_new (f64.copysign (local.get $x) (local.get $y))))

;; math.pow: non-finite arguments follow C99 (as CPython's own special cases do) and never
;; raise; for finite ones a nan result is a domain error, an infinite one a domain error from
;; 0 ** negative and a range error otherwise.
(func $b_math_pow (param $args i32) (param $kwargs i32) (result i64)
  (local $x f64) (local $y f64) (local $r f64)
  (call $math_args2 (global.get $s_math_name_pow) (global.get $s_math_short_pow) (local.get $args) (local.get $kwargs))
  (local.set $y) (local.set $x)
  (local.set $r (call $host_libm (global.get $libm_pow) (local.get $x) (local.get $y)))
  (if (i32.and (call $math_finite (local.get $x)) (call $math_finite (local.get $y)))
    (then
      (if (f64.ne (local.get $r) (local.get $r))
        (then (call $raise_static (global.get $t_ValueError) (global.get $s_math_domain))))
      (if (i32.eqz (call $math_finite (local.get $r)))
        (then
          (if (f64.eq (local.get $x) (f64.const 0))
            (then (call $raise_static (global.get $t_ValueError) (global.get $s_math_domain))))
          (call $raise_static (global.get $t_OverflowError) (global.get $s_math_range))))))
  (call $float_new (local.get $r)))

;; math.fmod: fmod(x, ±inf) is x for finite x; a nan from non-nans is a domain error.
(func $b_math_fmod (param $args i32) (param $kwargs i32) (result i64)
  (local $x f64) (local $y f64) (local $r f64)
  (call $math_args2 (global.get $s_math_name_fmod) (global.get $s_math_short_fmod) (local.get $args) (local.get $kwargs))
  (local.set $y) (local.set $x)
  (if (i32.and (f64.eq (f64.abs (local.get $y)) (f64.const inf)) (call $math_finite (local.get $x)))
    (then (return (call $float_new (local.get $x)))))
  (local.set $r (call $host_libm (global.get $libm_fmod) (local.get $x) (local.get $y)))
  (if (i32.and (f64.ne (local.get $r) (local.get $r))
        (i32.and (f64.eq (local.get $x) (local.get $x)) (f64.eq (local.get $y) (local.get $y))))
    (then (call $raise_static (global.get $t_ValueError) (global.get $s_math_domain))))
  (call $float_new (local.get $r)))

;; math.log(x[, base]): log(x) / log(base), each a domain error at or below 0; a base of 1
;; divides by zero.
(func $b_math_log (param $args i32) (param $kwargs i32) (result i64)
  (local $n i32) (local $x f64) (local $num f64) (local $den f64)
  (call $no_kwargs (global.get $s_math_name_log) (local.get $kwargs))
  (local.set $n (call $nargs (local.get $args)))
  (if (i32.or (i32.eqz (local.get $n)) (i32.gt_u (local.get $n) (i32.const 2)))
    (then (call $raise_static (global.get $t_TypeError) (global.get $s_math_log_count))))
  (local.set $x (call $as_f64 (call $arg (local.get $args) (i32.const 0))))
  (local.set $num (call $math_log_of (local.get $x)))
  (if (i32.eq (local.get $n) (i32.const 1)) (then (return (call $float_new (local.get $num)))))
  (local.set $den (call $math_log_of (call $as_f64 (call $arg (local.get $args) (i32.const 1)))))
  (if (f64.eq (local.get $den) (f64.const 0))
    (then (call $raise_static (global.get $t_ZeroDivisionError) (global.get $s_num_float_div_zero))))
  (call $float_new (f64.div (local.get $num) (local.get $den))))

(func $math_log_of (param $x f64) (result f64)
  (local $r f64)
  (local.set $r (call $host_libm (global.get $libm_log) (local.get $x) (f64.const 0)))
  (drop (call $math_1 (local.get $x) (local.get $r) (i32.const 0)))
  (local.get $r))

