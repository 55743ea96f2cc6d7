# bsde study: ex1, the paper's figures (error of y and z, speedup against N per K).
# Written by bsde study with the data inline; run in this folder: gnuplot study.gp
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo size 900,640 enhanced font "sans,12"
} else {
    set terminal png size 900,640
}
set datafile missing "?"
$K1 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
128 9.212149e-07 2.785989e-05 1.156210e+01 5.355818e+00
256 3.885047e-07 1.402347e-05 3.969277e+01 6.789177e+00
512 1.726010e-07 7.042265e-06 2.144755e+01 7.438488e+00
1024 8.223278e-08 3.526118e-06 3.415217e+01 9.156886e+00
EOD
$K2 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
128 2.437190e-09 1.567536e-06 5.160349e+01 1.048652e+01
256 8.151319e-10 3.938656e-07 8.955593e+01 1.394829e+01
512 1.500453e-10 9.879576e-08 2.089669e+02 1.852783e+01
1024 3.727396e-11 2.470707e-08 3.424173e+02 2.639007e+01
EOD
$K3 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
128 1.770251e-11 2.426757e-08 3.765899e+02 2.687881e+01
256 1.876277e-12 3.027858e-09 6.614563e+02 5.762217e+01
512 1.961209e-13 3.834783e-10 7.337177e+02 7.337019e+01
1024 2.553513e-15 4.789630e-11 8.755712e+02 8.919790e+01
EOD
$K4 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
128 1.127926e-11 1.398782e-08 4.202812e+02 3.558122e+01
256 1.258715e-12 1.717585e-09 6.652340e+02 8.256796e+01
512 2.531864e-13 2.173671e-10 9.514166e+02 8.481555e+01
1024 4.107825e-15 2.698908e-11 ? 1.049271e+02
EOD
$K5 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
128 3.029743e-12 1.589451e-08 4.023192e+02 3.464958e+01
256 1.351474e-12 1.968072e-09 8.013339e+02 6.934211e+01
512 4.174439e-14 2.495858e-10 9.256209e+02 8.368030e+01
1024 2.331468e-15 3.107492e-11 ? 9.383523e+01
EOD
$K6 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
128 8.649026e-12 1.532202e-08 4.880974e+02 3.479841e+01
256 1.000033e-12 1.894876e-09 6.750413e+02 6.418736e+01
512 1.139089e-13 2.402765e-10 ? 8.769375e+01
1024 3.219647e-15 2.989636e-11 ? 1.015922e+02
EOD
set logscale x 2
set xtics (128, 256, 512, 1024)
set xrange [106.667:1228.8]
set xlabel "N (time steps)"
set grid
set key outside right top

set output "y_error.png"
set title "ex1: error of y_0 against N, K = K_y = K_z"
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
set title "ex1: error of z_0 against N, K = K_y = K_z"
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
set title "ex1: speedup of cuda over serial"
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
set title "ex1: speedup of cuda over omp"
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
