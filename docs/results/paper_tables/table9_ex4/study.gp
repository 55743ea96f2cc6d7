# bsde study: ex4, the paper's figures (error of y and z, speedup against N per K).
# Written by bsde study with the data inline; run in this folder: gnuplot study.gp
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo size 900,640 enhanced font "sans,12"
} else {
    set terminal png size 900,640
}
set datafile missing "?"
$K1 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
8 1.316303e-02 1.639736e-03 7.291058e+00 2.738394e+00
16 6.463576e-03 3.310823e-03 1.683546e+01 3.500238e+00
32 3.177464e-03 2.313526e-03 3.069406e+01 5.404699e+00
64 1.571899e-03 1.312787e-03 5.350876e+01 8.314585e+00
EOD
$K2 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
8 1.816876e-03 6.382312e-03 2.121357e+01 4.374776e+00
16 5.485772e-04 1.773456e-03 6.185195e+01 9.128430e+00
32 1.480332e-04 4.659832e-04 1.680002e+02 2.073230e+01
64 3.835463e-05 1.191764e-04 5.164908e+02 5.054949e+01
EOD
$K3 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
8 3.847138e-04 1.003160e-03 6.485768e+01 1.063793e+01
16 6.660271e-05 1.469072e-04 2.228362e+02 3.195496e+01
32 9.605684e-06 1.974340e-05 6.233291e+02 7.529265e+01
64 1.271566e-06 2.561126e-06 ? 1.231497e+02
EOD
$K4 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
8 1.746603e-04 5.567089e-04 9.705632e+01 1.104626e+01
16 3.695998e-05 8.670442e-05 3.759007e+02 3.749936e+01
32 5.523295e-06 1.180925e-05 ? 8.042527e+01
64 7.460258e-07 1.545019e-06 ? ?
EOD
$K5 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
8 1.221359e-04 5.083808e-04 7.104892e+01 8.655604e+00
16 3.542532e-05 9.106689e-05 3.520120e+02 3.698350e+01
32 5.797785e-06 1.289108e-05 ? 8.431534e+01
64 8.111845e-07 1.718920e-06 ? ?
EOD
$K6 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
8 6.119154e-05 3.957727e-04 1.035242e+02 1.212176e+01
16 2.977466e-05 8.277469e-05 2.750127e+02 4.141224e+01
32 5.282976e-06 1.215344e-05 ? 8.532901e+01
64 7.681661e-07 1.641670e-06 ? ?
EOD
set logscale x 2
set xtics (8, 16, 32, 64)
set xrange [6.66667:76.8]
set xlabel "N (time steps)"
set grid
set key outside right top

set output "y_error.png"
set title "ex4: error of y_0 against N, K = K_y = K_z"
set ylabel "|y_0 error|"
set logscale y 10
set format y "10^{%L}"
set autoscale y
set offsets 0, 0, 0, 0
plot $K1 using 1:2 with linespoints lw 2 pt 7 ps 1.2 title "K = 1", \
     $K2 using 1:2 with linespoints lw 2 pt 7 ps 1.2 title "K = 2", \
     $K3 using 1:2 with linespoints lw 2 pt 7 ps 1.2 title "K = 3", \
     $K4 using 1:2 with linespoints lw 2 pt 7 ps 1.2 title "K = 4", \
     $K5 using 1:2 with linespoints lw 2 pt 7 ps 1.2 title "K = 5", \
     $K6 using 1:2 with linespoints lw 2 pt 7 ps 1.2 title "K = 6"

set output "z_error.png"
set title "ex4: error of z_0 against N, K = K_y = K_z"
set ylabel "|z_0 error|"
set logscale y 10
set format y "10^{%L}"
set autoscale y
set offsets 0, 0, 0, 0
plot $K1 using 1:3 with linespoints lw 2 pt 7 ps 1.2 title "K = 1", \
     $K2 using 1:3 with linespoints lw 2 pt 7 ps 1.2 title "K = 2", \
     $K3 using 1:3 with linespoints lw 2 pt 7 ps 1.2 title "K = 3", \
     $K4 using 1:3 with linespoints lw 2 pt 7 ps 1.2 title "K = 4", \
     $K5 using 1:3 with linespoints lw 2 pt 7 ps 1.2 title "K = 5", \
     $K6 using 1:3 with linespoints lw 2 pt 7 ps 1.2 title "K = 6"

set output "speedup_cuda_serial.png"
set title "ex4: speedup of cuda over serial"
set ylabel "speedup (serial time / cuda time)"
unset logscale y
set format y "%g"
set yrange [0:*]
set offsets 0, 0, graph 0.05, 0
plot $K1 using 1:4 with linespoints lw 2 pt 7 ps 1.2 title "K = 1", \
     $K2 using 1:4 with linespoints lw 2 pt 7 ps 1.2 title "K = 2", \
     $K3 using 1:4 with linespoints lw 2 pt 7 ps 1.2 title "K = 3", \
     $K4 using 1:4 with linespoints lw 2 pt 7 ps 1.2 title "K = 4", \
     $K5 using 1:4 with linespoints lw 2 pt 7 ps 1.2 title "K = 5", \
     $K6 using 1:4 with linespoints lw 2 pt 7 ps 1.2 title "K = 6"

set output "speedup_cuda_omp.png"
set title "ex4: speedup of cuda over omp"
set ylabel "speedup (omp time / cuda time)"
unset logscale y
set format y "%g"
set yrange [0:*]
set offsets 0, 0, graph 0.05, 0
plot $K1 using 1:5 with linespoints lw 2 pt 7 ps 1.2 title "K = 1", \
     $K2 using 1:5 with linespoints lw 2 pt 7 ps 1.2 title "K = 2", \
     $K3 using 1:5 with linespoints lw 2 pt 7 ps 1.2 title "K = 3", \
     $K4 using 1:5 with linespoints lw 2 pt 7 ps 1.2 title "K = 4", \
     $K5 using 1:5 with linespoints lw 2 pt 7 ps 1.2 title "K = 5", \
     $K6 using 1:5 with linespoints lw 2 pt 7 ps 1.2 title "K = 6"
unset output
