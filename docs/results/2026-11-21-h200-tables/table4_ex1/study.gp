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
128 9.212149e-07 2.785989e-05 9.025262e+00 2.637238e+00
256 3.885047e-07 1.402347e-05 1.063496e+01 2.628000e+00
512 1.726010e-07 7.042265e-06 1.494268e+01 3.359377e+00
1024 8.223277e-08 3.526118e-06 2.099873e+01 4.239235e+00
EOD
$K2 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
128 2.437190e-09 1.567536e-06 4.075753e+01 6.599105e+00
256 8.151336e-10 3.938656e-07 6.658053e+01 1.001663e+01
512 1.500447e-10 9.879575e-08 1.132890e+02 1.705711e+01
1024 3.727474e-11 2.470707e-08 1.830852e+02 2.471421e+01
EOD
$K3 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
128 1.770240e-11 2.426757e-08 1.838701e+02 2.466896e+01
256 1.876499e-12 3.027858e-09 3.631824e+02 4.790089e+01
512 1.962319e-13 3.834797e-10 4.849485e+02 4.585243e+01
1024 6.328271e-15 4.789619e-11 7.149334e+02 6.365499e+01
EOD
$K4 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
128 1.127881e-11 1.398782e-08 2.117020e+02 1.965070e+01
256 1.259826e-12 1.717584e-09 3.930685e+02 5.400530e+01
512 2.547407e-13 2.173673e-10 5.538808e+02 4.550641e+01
1024 4.107825e-15 2.698836e-11 ? 6.902024e+01
EOD
$K5 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
128 3.029521e-12 1.589451e-08 2.478503e+02 2.496099e+01
256 1.351808e-12 1.968072e-09 4.588252e+02 5.041716e+01
512 4.185541e-14 2.495864e-10 ? 5.233843e+01
1024 4.107825e-15 3.107481e-11 ? 7.824431e+01
EOD
$K6 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
128 8.649692e-12 1.532202e-08 2.766521e+02 2.263006e+01
256 1.000255e-12 1.894876e-09 5.053392e+02 5.394333e+01
512 1.143530e-13 2.402775e-10 ? 5.348687e+01
1024 1.776357e-15 2.989647e-11 ? 7.405244e+01
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
